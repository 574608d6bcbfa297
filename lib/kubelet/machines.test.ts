import { describe, expect, it } from 'vitest';
import { CRI_EVENT_TYPES } from '../timeline/events';
import {
  CONTAINER_MACHINE,
  KUBELET_CAUSES,
  MACHINES,
  NODE_READY_MACHINE,
  POD_PHASE_MACHINE,
  containerStateName,
  findEdge,
  isLegalTransition,
  validateTransition,
} from './machines';
import { WHY } from './why';
import { failedState, runningState, waitingState } from './testing/fixtures';

describe('state machines', () => {
  for (const machine of Object.values(MACHINES)) {
    describe(machine.id, () => {
      it('edges join known states, have unique ids and (from, to) pairs, and catalogue labels', () => {
        const states = machine.states as readonly string[];
        const pairs = new Set<string>();
        const ids = new Set<string>();
        for (const edge of machine.edges) {
          expect(states).toContain(edge.from);
          expect(states).toContain(edge.to);
          expect(edge.why in WHY).toBe(true);
          expect(edge.why).toBe(`machine.${machine.id}.${edge.id}`);
          expect(pairs.has(`${edge.from}>${edge.to}`)).toBe(false);
          expect(ids.has(edge.id)).toBe(false);
          pairs.add(`${edge.from}>${edge.to}`);
          ids.add(edge.id);
        }
        expect(states).toContain(machine.initial);
      });
      it('every driver is a CRI event type or a kubelet cause', () => {
        const known = new Set<string>([...CRI_EVENT_TYPES, ...KUBELET_CAUSES]);
        for (const edge of machine.edges)
          for (const d of edge.drivers) expect(known.has(d)).toBe(true);
      });
      it('terminal states have no way out; every other state is reachable from the initial one', () => {
        for (const t of machine.terminal)
          expect(machine.edges.some((e) => e.from === t)).toBe(false);
        const seen = new Set<string>([machine.initial]);
        let grew = true;
        while (grew) {
          grew = false;
          for (const e of machine.edges) {
            if (seen.has(e.from) && !seen.has(e.to)) {
              seen.add(e.to);
              grew = true;
            }
          }
        }
        expect([...seen].sort()).toEqual([...machine.states].sort());
      });
    });
  }

  it('container: waiting → running is driven by ContainerStarted', () => {
    expect(findEdge(CONTAINER_MACHINE, 'waiting', 'running')?.drivers).toEqual([
      'ContainerStarted',
    ]);
    expect(
      validateTransition(CONTAINER_MACHINE, 'waiting', 'running', 'ContainerStarted'),
    ).toMatchObject({ legal: true, driverMatches: true });
    expect(
      validateTransition(CONTAINER_MACHINE, 'waiting', 'running', 'ContainerExited'),
    ).toMatchObject({ legal: true, driverMatches: false });
    expect(findEdge(CONTAINER_MACHINE, 'terminated', 'waiting')?.drivers).toContain(
      'BackOffStarted',
    );
  });

  it('pod phase: terminal phases never go back, and getPhase never yields Unknown', () => {
    expect(POD_PHASE_MACHINE.terminal).toEqual(['Succeeded', 'Failed']);
    expect(validateTransition(POD_PHASE_MACHINE, 'Succeeded', 'Running')).toEqual({
      legal: false,
      reason: 'fromTerminal',
    });
    expect(validateTransition(POD_PHASE_MACHINE, 'Failed', 'Succeeded')).toEqual({
      legal: false,
      reason: 'fromTerminal',
    });
    expect(validateTransition(POD_PHASE_MACHINE, 'Running', 'Unknown')).toEqual({
      legal: false,
      reason: 'unknownState',
    });
    expect(isLegalTransition(POD_PHASE_MACHINE, 'Running', 'Pending')).toBe(true);
    expect(isLegalTransition(POD_PHASE_MACHINE, 'Pending', 'Pending')).toBe(false);
  });

  it('node Ready: Unknown comes from silence, and contact brings it back', () => {
    expect(findEdge(NODE_READY_MACHINE, 'True', 'Unknown')?.drivers).toEqual([
      'RelistFailed',
      'GracePeriodExpired',
    ]);
    expect(findEdge(NODE_READY_MACHINE, 'Unknown', 'True')?.drivers).toEqual(['RelistRecovered']);
    expect(isLegalTransition(NODE_READY_MACHINE, 'True', 'True')).toBe(false);
  });

  it('containerStateName reads a V1ContainerStatus', () => {
    expect(containerStateName(runningState('a'))).toBe('running');
    expect(containerStateName(failedState('a'))).toBe('terminated');
    expect(containerStateName(waitingState('a'))).toBe('waiting');
    expect(containerStateName(undefined)).toBe('waiting');
  });
});
