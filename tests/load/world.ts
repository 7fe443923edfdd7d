/**
 * What the load runs against and records into: the server processes, the partners the virtual users
 * act for, the recorder and the ledger, the run's id and its deadline.
 */
import type { Ledger } from './ledger';
import type { Recorder } from './recorder';

export interface Server {
  /** Variant A's base, `http://127.0.0.1:<port>/api/partner/v1`. */
  a: string;
  /** Variant B's base, `http://127.0.0.1:<port>/v1`. */
  b: string;
}

export interface LoadPartner {
  partnerId: string;
  apiKeys: string[];
}

export interface World {
  servers: Server[];
  partners: LoadPartner[];
  rec: Recorder;
  ledger: Ledger;
  runId: string;
  deadline: number;
}
