import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { SEPARATION_WASM } from '../../src/quadtree/kernels/separationWasm';
import { separationWasm } from '../../src/quadtree/kernels/wasm';

describe('WebAssembly kernels', () => {
  it('the embedded bytes are what npm run build:kernels makes from kernels/separation.ts', () => {
    // Throws (exit 1, with the reason) when they differ.
    const out = execFileSync(process.execPath, ['kernels/build.mjs', '--check'], { encoding: 'utf8' });
    expect(out).toMatch(/matches a rebuild/);
  }, 120_000);

  it('stays under 4 KB, the size browsers have allowed to compile synchronously on the main thread', () => {
    expect(atob(SEPARATION_WASM).length).toBeLessThan(4096);
  });

  it('compiles synchronously in Node (WebAssembly SIMD) and once only', () => {
    const kernel = separationWasm();
    expect(kernel).not.toBeNull();
    expect(separationWasm()).toBe(kernel);
  });
});
