import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket, WebSocketServer } from 'ws';
import { type Handshake, parseHandshakeUrl } from './protocol.js';

// The WebSocket handshake: nothing a client sends may reach the process. A malformed request
// target is refused with HTTP 400 before the upgrade (ws refuses bad handshake headers the
// same way); anything unforeseen is logged and ends that one socket only.

/** An HTTP refusal before the upgrade (the socket still speaks plain HTTP). */
function rejectHandshake(socket: Duplex, status: 400 | 500, reason: string): void {
  if (!socket.writable) return void socket.destroy();
  const body = `${reason}\n`;
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
}

/** Upgrades well-formed handshakes and hands them to `accept` (which applies the Pusher checks). */
export function handleUpgrades(
  server: Server,
  wss: WebSocketServer,
  accept: (socket: WebSocket, request: IncomingMessage, handshake: Handshake) => void,
  log?: FastifyBaseLogger,
): void {
  // A handshake is a few headers: whoever takes longer is holding a socket open, not connecting.
  server.headersTimeout = 10_000;
  server.requestTimeout = 15_000;
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    let upgraded = false;
    try {
      const handshake = parseHandshakeUrl(request.url);
      if (!handshake) return rejectHandshake(socket, 400, 'Bad Request');
      wss.handleUpgrade(request, socket, head, (ws) => {
        upgraded = true;
        try {
          accept(ws, request, handshake);
        } catch (error) {
          log?.error({ err: error }, 'realtime connection failed');
          ws.terminate();
        }
      });
    } catch (error) {
      log?.error({ err: error }, 'realtime handshake failed');
      if (upgraded) socket.destroy();
      else rejectHandshake(socket, 500, 'Server Error');
    }
  });
}
