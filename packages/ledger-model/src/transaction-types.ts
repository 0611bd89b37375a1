// Transaction type codes and names of the 0.129 mirror node (docs/ledger-api.md §F5.2). Any other code prints UNKNOWN.
export const TRANSACTION_TYPE_NAMES: ReadonlyMap<number, string> = new Map([
  [7, 'CONTRACTCALL'],
  [8, 'CONTRACTCREATEINSTANCE'],
  [9, 'CONTRACTUPDATEINSTANCE'],
  [10, 'CRYPTOADDLIVEHASH'],
  [11, 'CRYPTOCREATEACCOUNT'],
  [12, 'CRYPTODELETE'],
  [13, 'CRYPTODELETELIVEHASH'],
  [14, 'CRYPTOTRANSFER'],
  [15, 'CRYPTOUPDATEACCOUNT'],
  [16, 'FILEAPPEND'],
  [17, 'FILECREATE'],
  [18, 'FILEDELETE'],
  [19, 'FILEUPDATE'],
  [20, 'SYSTEMDELETE'],
  [21, 'SYSTEMUNDELETE'],
  [22, 'CONTRACTDELETEINSTANCE'],
  [23, 'FREEZE'],
  [24, 'CONSENSUSCREATETOPIC'],
  [25, 'CONSENSUSUPDATETOPIC'],
  [26, 'CONSENSUSDELETETOPIC'],
  [27, 'CONSENSUSSUBMITMESSAGE'],
  [28, 'UNCHECKEDSUBMIT'],
  [29, 'TOKENCREATION'],
  [31, 'TOKENFREEZE'],
  [32, 'TOKENUNFREEZE'],
  [33, 'TOKENGRANTKYC'],
  [34, 'TOKENREVOKEKYC'],
  [35, 'TOKENDELETION'],
  [36, 'TOKENUPDATE'],
  [37, 'TOKENMINT'],
  [38, 'TOKENBURN'],
  [39, 'TOKENWIPE'],
  [40, 'TOKENASSOCIATE'],
  [41, 'TOKENDISSOCIATE'],
  [42, 'SCHEDULECREATE'],
  [43, 'SCHEDULEDELETE'],
  [44, 'SCHEDULESIGN'],
  [45, 'TOKENFEESCHEDULEUPDATE'],
  [46, 'TOKENPAUSE'],
  [47, 'TOKENUNPAUSE'],
  [48, 'CRYPTOAPPROVEALLOWANCE'],
  [49, 'CRYPTODELETEALLOWANCE'],
  [50, 'ETHEREUMTRANSACTION'],
  [51, 'NODESTAKEUPDATE'],
  [52, 'UTILPRNG'],
  [53, 'TOKENUPDATENFTS'],
  [54, 'NODECREATE'],
  [55, 'NODEUPDATE'],
  [56, 'NODEDELETE'],
  [57, 'TOKENREJECT'],
  [58, 'TOKENAIRDROP'],
  [59, 'TOKENCANCELAIRDROP'],
  [60, 'TOKENCLAIMAIRDROP'],
  [74, 'ATOMICBATCH'],
]);

/** Names the service accepts in `transactiontype=` (case-insensitive); UNKNOWN and NODE are rejected (docs/ledger-api.md §9). */
export const QUERYABLE_TRANSACTION_TYPES: ReadonlySet<string> = new Set(TRANSACTION_TYPE_NAMES.values());

/** Every name the interface specification lists, including the two the service rejects as a filter. */
export const TRANSACTION_TYPES = [
  ...[...TRANSACTION_TYPE_NAMES.values()],
  'NODE',
  'UNKNOWN',
].sort() as readonly string[];

export function transactionTypeName(code: number): string {
  return TRANSACTION_TYPE_NAMES.get(code) ?? 'UNKNOWN';
}
