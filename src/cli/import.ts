/**
 * `npm run import` / `prompt-fold import` (started by commands.ts): runs the import command
 * (import-command.ts, which says what it does) on this process's arguments and folder, printing its
 * lines to stdout; runMain prints a UserError's message (no stack) and sets the exit code.
 */
import { importCommand } from './import-command.ts';
import { runMain } from './config.ts';

runMain(() => importCommand(process.argv.slice(2), { cwd: process.cwd(), out: (line) => console.log(line) }));
