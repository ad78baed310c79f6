/**
 * A spy on `net.connect`, which undici's connector calls to open every plain-HTTP socket. It
 * records the address of each connect; loopback targets go through, any other address gets a
 * simulated ECONNREFUSED so that no test ever sends a packet off the machine.
 */
import net from 'node:net';

import { vi } from 'vitest';

export interface ConnectSpy {
  /** The `host` of every `net.connect` call so far, in order. */
  hosts: () => string[];
  restore: () => void;
}

const LOOPBACK = new Set(['127.0.0.1', '::1']);

export function spyOnConnect(): ConnectSpy {
  const original = net.connect.bind(net);
  const hosts: string[] = [];
  const spy = vi.spyOn(net, 'connect').mockImplementation(((options: net.NetConnectOpts) => {
    const host = 'host' in options ? (options.host ?? '') : '';
    hosts.push(host);
    if (LOOPBACK.has(host)) return original(options);
    const socket = new net.Socket();
    process.nextTick(() => {
      socket.destroy(
        Object.assign(new Error(`connect ECONNREFUSED ${host} (test)`), { code: 'ECONNREFUSED' }),
      );
    });
    return socket;
  }) as typeof net.connect);
  return {
    hosts: () => [...hosts],
    restore: () => {
      spy.mockRestore();
    },
  };
}
