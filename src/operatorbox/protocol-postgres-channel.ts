/**
 * A socket's backend messages as an awaitable sequence: `next()` resolves with the next message the protocol
 * logic cares about (asynchronous NoticeResponse, ParameterStatus and NotificationResponse are skipped), or
 * rejects once the socket failed, closed or sent bytes that are not the protocol. The first failure is kept.
 */
import type { Socket } from 'node:net';
import { PostgresFailure } from './protocol-postgres-errors.js';
import { BackendReader, type BackendMessage } from './protocol-postgres-wire.js';

/** Messages that may come at any time and carry nothing a call reads. */
const ASYNCHRONOUS = new Set(['N', 'S', 'A']);

export class MessageChannel {
  private readonly reader: BackendReader;
  /** Received messages; those before `head` are consumed (a queue without an O(n) shift per message). */
  private messages: BackendMessage[] = [];
  private head = 0;
  private waiter: { resolve: (message: BackendMessage) => void; reject: (error: Error) => void } | undefined;
  private failure: Error | undefined;

  constructor(
    private readonly socket: Socket,
    maxMessageBytes: number,
  ) {
    this.reader = new BackendReader(maxMessageBytes);
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', (error: Error) => this.fail(error));
    socket.on('close', () => this.fail(new PostgresFailure('the server closed the connection')));
  }

  /** The failure that ended the channel, if any. */
  get failed(): Error | undefined {
    return this.failure;
  }

  /** The next message already received that is not asynchronous, if any (no promise per message of a result). */
  poll(): BackendMessage | undefined {
    return this.shift();
  }

  /** The next message that is not asynchronous; rejects with the channel's failure. */
  next(): Promise<BackendMessage> {
    const message = this.shift();
    if (message !== undefined) return Promise.resolve(message);
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
    });
  }

  /**
   * Messages received while nobody waited (a pooled connection between calls): asynchronous ones are dropped;
   * anything else (a FATAL ErrorResponse before the server closes) means the session is not reusable.
   */
  drainIdle(): boolean {
    const message = this.shift();
    return message === undefined && this.failure === undefined;
  }

  private shift(): BackendMessage | undefined {
    while (this.head < this.messages.length) {
      const message = this.messages[this.head];
      this.head += 1;
      if (message !== undefined && !ASYNCHRONOUS.has(message.type)) return message;
    }
    if (this.head > 0) {
      this.messages = [];
      this.head = 0;
    }
    return undefined;
  }

  private receive(chunk: Buffer): void {
    try {
      this.reader.push(chunk);
    } catch (error) {
      this.fail(error instanceof Error ? error : new PostgresFailure('the server sent an unreadable message'));
      this.socket.destroy();
      return;
    }
    for (const message of this.reader.take()) this.messages.push(message);
    const waiter = this.waiter;
    if (waiter === undefined) return;
    const message = this.shift();
    if (message === undefined) return;
    this.waiter = undefined;
    waiter.resolve(message);
  }

  private fail(error: Error): void {
    if (this.failure !== undefined) return;
    this.failure = error;
    const waiter = this.waiter;
    this.waiter = undefined;
    // Messages already queued stay readable (an ErrorResponse right before the close says more than the close).
    if (waiter === undefined) return;
    const message = this.shift();
    if (message !== undefined) waiter.resolve(message);
    else waiter.reject(error);
  }
}
