// day-count.ts stays internal: its numerators are an implementation detail of the replay.
export * from './caps';
export * from './ledger';
export * from './loan-facts';
export * from './statement';
export * from './what-if';
