/**
 * Every patch this service applies to neo4j-driver internals, in one place (README.md in this
 * folder: why each exists, its measured gain, what it touches, how to remove it).
 *
 * Each patch has a guard: a check that the driver function it patches still exists with the
 * expected shape. `patchGuards` runs them against any installed driver (the pinned one, or the
 * newest release line: `npm run driver:check-patches`), so a driver upgrade is one decision.
 */
import { boltChunksGuard, installBoltChunks } from './bolt-chunks.js';
import { boltSocketsGuard, installBoltSocketTuning, NODE_CHANNEL_MODULE } from './bolt-sockets.js';
import { installPlainParamsFastPath, plainParamsGuard, TRANSFORMER_MODULE } from './plain-params.js';
import { fastDateTimeGuard, installFastDateTime } from './fast-datetime.js';
import { fastUnpackGuard, installFastUnpack, PACKSTREAM_MODULE } from './fast-unpack.js';
import { fastPackGuard, installFastPack } from './fast-pack.js';
import { installJoinedMessages, joinedMessagesGuard } from './joined-messages.js';

/**
 * Installs the patches (before the driver opens any connection: a connection's transformer binds
 * its functions when it is built).
 */
export function installDriverPatches(): void {
  installBoltSocketTuning();
  // Before plain-params, which wraps it: plain values skip even its DateTime check.
  installFastDateTime();
  installPlainParamsFastPath();
  installBoltChunks();
  installFastUnpack();
  installFastPack();
  installJoinedMessages();
}

export interface GuardResult {
  patch: string;
  /** What is wrong, or null when the patch applies to this driver. */
  problem: string | null;
}

/** Runs every patch's guard against the driver that `load` requires modules from. */
export function patchGuards(load: (id: string) => unknown): GuardResult[] {
  const attempt = (patch: string, check: () => string | null): GuardResult => {
    try {
      return { patch, problem: check() };
    } catch (err) {
      return { patch, problem: `cannot load its module: ${(err as Error).message.split('\n')[0]}` };
    }
  };
  return [
    attempt('bolt-sockets', () => boltSocketsGuard(load(NODE_CHANNEL_MODULE))),
    attempt('plain-params', () => plainParamsGuard(load(TRANSFORMER_MODULE))),
    attempt('fast-datetime', () => fastDateTimeGuard(load)),
    attempt('bolt-chunks', () => boltChunksGuard(load)),
    attempt('fast-unpack', () => fastUnpackGuard(load(PACKSTREAM_MODULE))),
    attempt('fast-pack', () => fastPackGuard(load)),
    attempt('joined-messages', () => joinedMessagesGuard(load)),
  ];
}
