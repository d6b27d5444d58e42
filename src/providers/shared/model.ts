/** The model id a provider receives: the scenario's `provider/` prefix (e.g. `openai/`) removed. */
export function providerModel(model: string): string {
  return model.replace(/^[A-Za-z0-9_.-]+\//, '');
}
