/**
 * A watch at a version other than the storage version of a CRD that converts through a webhook, or whose versions'
 * schemas differ: the watcher writes each event's object with the storage content, and this sink converts it (one
 * webhook call per written chunk, in order; converted-views.ts) before it reaches the client. A failed conversion ends the watch with an ERROR event carrying the
 * 500 Status, as kube-apiserver ends a watch it cannot serve; the client re-lists and sees the error there.
 */
import type { WatchSink } from '../watch/watcher.js';
import type { KubeObject } from '../store/record.js';
import { StatusError } from '../status-errors.js';
import { convertObjects, type Conversion } from './converted-views.js';

interface WatchEvent {
  type: string;
  object: KubeObject;
}

const CONVERTED = new Set(['ADDED', 'MODIFIED', 'DELETED']);

/**
 * Wraps `sink` so that the objects of data events are converted from the storage version to `apiVersion`.
 * `isOpen` says whether the client is still there: a chunk whose conversion ends after it left is dropped.
 */
export function convertingSink(sink: WatchSink, conversion: Conversion, apiVersion: string, isOpen: () => boolean): WatchSink {
  let chain: Promise<void> = Promise.resolve();
  let ended = false;
  const convertChunk = async (chunk: string): Promise<string> => {
    const events = chunk
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as WatchEvent);
    const data = events.filter((event) => CONVERTED.has(event.type));
    const stored = data.map((event) => ({ ...event.object, apiVersion: conversion.storage.apiVersion }));
    const converted = await convertObjects(conversion, stored, apiVersion);
    data.forEach((event, index) => {
      event.object = converted[index] ?? event.object;
    });
    return events.map((event) => `${JSON.stringify(event)}\n`).join('');
  };
  return {
    write: (chunk) => {
      chain = chain.then(async () => {
        if (ended || !isOpen()) return;
        try {
          const converted = await convertChunk(chunk);
          if (!ended && isOpen()) sink.write(converted);
        } catch (error) {
          if (ended || !isOpen()) return;
          ended = true;
          const status = error instanceof StatusError ? error.body : { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: String(error), code: 500 };
          sink.write(`{"type":"ERROR","object":${JSON.stringify(status)}}\n`);
          sink.end();
        }
      });
    },
    end: () => {
      chain = chain.then(() => {
        if (ended || !isOpen()) return;
        ended = true;
        sink.end();
      });
    },
    destroy: () => {
      ended = true;
      sink.destroy();
    },
    buffered: () => sink.buffered(),
  };
}
