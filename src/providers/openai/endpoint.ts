/** The headers of OpenAI's two endpoints (Chat Completions, Responses): one bearer key, and the headers that name the account. */
export const OPENAI_ENDPOINT_HEADERS = ['Authorization: Bearer $OPENAI_API_KEY', 'Content-Type: application/json'];
/** The headers that name the account a request is billed to (platform.openai.com/docs/api-reference/authentication), besides its bearer key. */
export const OPENAI_CREDENTIAL_HEADERS = ['OpenAI-Organization', 'OpenAI-Project'];
