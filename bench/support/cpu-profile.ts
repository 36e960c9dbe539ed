// The shape of a V8 `.cpuprofile` file (`node --cpu-prof`), as the profile readers in bench/support read it.

export interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
}
export interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children?: readonly number[];
}
export interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas?: readonly number[];
  readonly endTime?: number;
  readonly startTime?: number;
}
