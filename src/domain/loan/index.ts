export * from './balance';
export * from './calendar';
export * from './credit-rating';
export * from './disclosure';
export * from './rates';
export * from './schedule';
export * from './status';
export * from './terms';
