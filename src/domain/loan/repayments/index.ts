export * from './caps';
export * from './day-count';
export * from './ledger';
export * from './statement';
export * from './what-if';
