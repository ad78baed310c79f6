/**
 * @module net/pinned-connector
 * The undici connector of the outbound client. Each connection pool is built for one checked
 * address; its connector opens every socket (the first one and any reconnection) to exactly that
 * address, whatever host name the pool's origin carries. TLS still uses the origin's host name as
 * SNI and verifies the certificate for it.
 *
 * Why a wrapper around `buildConnector` rather than its `lookup` option: Node calls `lookup` only
 * for names, never for IP literals (the gap behind nodejs/undici#2019 and several SSRF bypasses),
 * and `lookup` does not see the port, which the resolve-override exemption needs. Resolving and
 * checking before dispatch, then connecting to a literal, closes both gaps.
 */
import { rootCertificates } from 'node:tls';

import { buildConnector } from 'undici';

import { NetError } from './net-error.js';

/** Makes the connector of a pool pinned to one address. */
export type PinnedConnectorFactory = (address: string) => buildConnector.connector;

export interface PinnedConnectorOptions {
  /** TCP + TLS handshake limit per connection, ms (the request's own budget usually ends first). */
  connectTimeoutMs: number;
  /** PEM certificates trusted in addition to Node's bundled root CAs; undefined for the roots only. */
  extraCaCertificates: readonly string[] | undefined;
}

/**
 * Build the connector factory. All pools share one base connector, hence one TLS session cache
 * (keyed by server name, as undici does).
 *
 * The base connector is given a `lookup` that always fails: it only ever receives IP literals, for
 * which Node does not call `lookup`, so this is a tripwire that turns any accidental name into a
 * connect error instead of a second, unchecked resolution.
 *
 * Connect errors (refused, unreachable, connect timeout, TLS handshake or certificate failure) are
 * reported as {@link NetError} `connect_failed`, which undici passes to the waiting request as is.
 */
export function createPinnedConnectorFactory(
  options: PinnedConnectorOptions,
): PinnedConnectorFactory {
  const base = buildConnector({
    timeout: options.connectTimeoutMs,
    ...(options.extraCaCertificates === undefined
      ? {}
      : { ca: [...rootCertificates, ...options.extraCaCertificates] }),
    lookup: (hostname, _options, callback) => {
      callback(
        new Error(`refusing to resolve ${hostname}: sockets go to checked addresses only`),
        '',
      );
    },
  });

  return (address) => (connectOptions, callback) => {
    const origin = `${connectOptions.protocol}//${connectOptions.host ?? connectOptions.hostname}`;
    base(
      {
        // Only the fields the base connector reads; `hostname` is replaced by the pinned address
        // while `host` (name:port) stays, so the TLS server name comes from the origin's name.
        hostname: address,
        host: connectOptions.host ?? connectOptions.hostname,
        protocol: connectOptions.protocol,
        port: connectOptions.port,
        servername: connectOptions.servername,
        localAddress: connectOptions.localAddress,
        httpSocket: connectOptions.httpSocket,
      },
      (error, socket) => {
        if (error === null) {
          callback(null, socket);
        } else {
          callback(new NetError('connect_failed', error.message, origin, { cause: error }), null);
        }
      },
    );
  };
}
