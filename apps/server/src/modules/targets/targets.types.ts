import type { Target } from '@vexil/core';

/** A target as the module keeps it: core's `Target` with the id audit entries name it by. */
export type TargetRecord = Target & { id: string };
