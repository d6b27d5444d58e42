import { describe, expect, it } from 'vitest';
import { jitCompile } from './jit.ts';

// `--trace-opt` lines in V8's shape (Node 24): marking, starting and finishing a compile job.
const completed = (name: string, target: string, took: [number, number, number], osr = false): string =>
  `[completed compiling 0x3705b66491e9 <JSFunction ${name} (sfi = 0x352834de60e9)> (target ${target})${osr ? ' OSR' : ''} - took ${took.map((t) => t.toFixed(3)).join(', ')} ms]`;

describe('jitCompile', () => {
  it("sums the execute step of every finished job, TurboFan's apart, and ignores the lines around them", () => {
    const out = [
      '[marking 0x3705b66491e9 <JSFunction encodePanes (sfi = 0x352834de60e9)> for optimization to TURBOFAN_JS, ConcurrencyMode::kConcurrent, reason: hot and stable]',
      '[compiling method 0x3705b66491e9 <JSFunction encodePanes (sfi = 0x352834de60e9)> (target TURBOFAN_JS), mode: ConcurrencyMode::kConcurrent]',
      completed('encodePanes', 'TURBOFAN_JS', [0.016, 73.331, 0.234]),
      completed('', 'MAGLEV', [0.001, 0.335, 0.002]),
      completed('unpackDictionaryData', 'MAGLEV', [0.001, 1.5, 0.001], true),
      // A method named by a symbol; Node 20's name for TurboFan.
      completed('[Symbol.iterator]', 'TURBOFAN', [0.005, 0.716, 0.012]),
      // Astro's progress line and a trace line can share one line of output.
      `01:19:01   ├─ /changes/index.html${completed('render', 'TURBOFAN_JS', [0.003, 24.63, 0.226])}`,
      '[bailout (kind: deopt-eager, reason: wrong map): begin. deoptimizing 0x34d4 <JSFunction parseSource (sfi = 0x1c17)>, 0x0ced <Code MAGLEV>, opt id 8]',
    ].join('\n');
    const j = jitCompile(out)!;
    expect(j.jobs).toBe(5);
    expect(j.executeMs).toBeCloseTo(73.331 + 0.335 + 1.5 + 0.716 + 24.63, 6);
    expect(j.turbofanMs).toBeCloseTo(73.331 + 0.716 + 24.63, 6);
  });

  it('gives null, not zero, for output with no finished job (a build run without the trace, or a V8 that prints another shape)', () => {
    expect(jitCompile('')).toBeNull();
    expect(jitCompile('01:19:03 [build] 124 page(s) built in 6.12s\n[compiling method 0x1 <JSFunction f (sfi = 0x2)> (target MAGLEV)]')).toBeNull();
  });
});
