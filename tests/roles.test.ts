import { describe, expect, it } from 'vitest';
import { isManagerRole, ourRole } from '../src/utils/roles';

// docs/api-contract.md, "Role names": a server of the Laravel era answers owner, admin,
// collaborator or user; the console shows and judges them as ours.
describe('role names', () => {
  it.each([
    ['owner', 'owner', true],
    ['manager', 'manager', true],
    ['member', 'member', false],
    ['admin', 'manager', true],
    ['collaborator', 'member', false],
    ['user', 'member', false],
    [null, null, false],
    [undefined, null, false],
  ] as const)('%s is our %s (manager: %s)', (given, ours, manager) => {
    expect(ourRole(given)).toBe(ours);
    expect(isManagerRole(given)).toBe(manager);
  });
});
