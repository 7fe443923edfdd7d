/**
 * The virtual users of the load test. Each one runs whole partner flows back to back until the
 * deadline, picking at random: Variant A for the three loan types, or Variant B. Some flows stop
 * part-way, as applicants do; some requests are sent again with the same key (replays) or twice at
 * once (concurrent duplicates, one to each server process). Every acknowledged result goes into the
 * ledger; every answer that is not one the contract allows for that request is an anomaly.
 */
import { LOAN_TYPES } from '../support';
import { chance, pick } from './random';
import { User } from './user';
import { flowA } from './variant-a';
import { flowB } from './variant-b';
import type { World } from './world';

export class VirtualUser {
  private readonly user: User;

  constructor(world: World, n: number) {
    this.user = new User(world, n);
  }

  async run(): Promise<void> {
    const user = this.user;
    while (Date.now() < user.world.deadline) {
      const partner = pick(user.world.partners);
      if (chance(0.3)) await flowB(user, partner);
      else await flowA(user, partner, pick(LOAN_TYPES));
      user.flows++;
    }
  }
}
