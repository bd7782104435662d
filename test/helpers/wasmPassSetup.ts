/**
 * The `unit-wasm` project's check (vitest.config.ts): a test file there that calls moveAll must have run
 * moveAll's pass in the WebAssembly kernel at least once, or it tested the JavaScript pass a second time.
 */
import { afterAll, expect } from 'vitest';
import { movePasses } from './crowdAsPoint';

afterAll(() => {
  if (movePasses.calls > 0) {
    expect(movePasses.wasm, `moveAll ran ${movePasses.calls} times, never in the kernel`).toBeGreaterThan(0);
  }
});
