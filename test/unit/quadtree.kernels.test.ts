import { execFileSync } from 'node:child_process';
import { SEPARATION_WASM } from 'point-quadtree/internal/crowd/separationWasm';
import { separationWasm } from 'point-quadtree/internal/crowd/wasm';
import { describe, expect, it } from 'vitest';

describe('WebAssembly kernels', () => {
  it('the embedded bytes are what npm run build:kernels makes from kernels/separation.ts', () => {
    // Throws (exit 1, with the reason) when they differ.
    const out = execFileSync(process.execPath, ['src/quadtree/crowd/kernels/build.mjs', '--check'], {
      encoding: 'utf8',
    });
    expect(out).toMatch(/matches a rebuild/);
  }, 120_000);

  it('stays small (under 16 KB): browsers may refuse to compile large modules synchronously on the main thread', () => {
    // Chrome allows 8 MB there today (it used to refuse anything over 4 KB: then the JavaScript kernels run);
    // the browser test of crowd mode checks that Chromium does compile it (the HUD says wasm-simd). The
    // bound keeps the module a reader can hold and the one synchronous compile short.
    expect(atob(SEPARATION_WASM).length).toBeLessThan(16384);
  });

  it('compiles synchronously in Node (WebAssembly SIMD) and once only', () => {
    const kernel = separationWasm();
    expect(kernel).not.toBeNull();
    expect(separationWasm()).toBe(kernel);
  });
});
