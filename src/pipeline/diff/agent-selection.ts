import { RobotsAuditError } from '../../core/errors.js';
import { ROW_AGENT, shownAgent, UNNAMED_AGENT, type VerdictGroup } from './verdict-layout.js';

/** The agents compared: a group of each file, paired by name (product tokens match in any case). */
export interface AgentPair {
  name: string;
  old: VerdictGroup;
  new: VerdictGroup;
}

/**
 * Pairs the two files' agents. With `wanted` (`--agent`), those agents (each must be in both files),
 * plus each row's own agent when both are `--agent-column` runs; without it, every agent, which must
 * then be the same in both files.
 */
export function selectAgents(
  oldGroups: readonly VerdictGroup[],
  newGroups: readonly VerdictGroup[],
  files: { old: string; new: string },
  wanted?: readonly string[],
): AgentPair[] {
  const find = (groups: readonly VerdictGroup[], name: string) =>
    groups.find((g) => g.name.toLowerCase() === name.toLowerCase());
  if (wanted !== undefined && wanted.length > 0) {
    const pairs: AgentPair[] = [];
    const rowOld = find(oldGroups, ROW_AGENT);
    const rowNew = find(newGroups, ROW_AGENT);
    if (rowOld && rowNew) pairs.push({ name: ROW_AGENT, old: rowOld, new: rowNew });
    // A one-agent run names no agent in its header: a single --agent names it.
    const named = (groups: readonly VerdictGroup[], name: string) =>
      find(groups, name) ?? (wanted.length === 1 ? find(groups, UNNAMED_AGENT) : undefined);
    for (const name of wanted) {
      const o = named(oldGroups, name);
      const n = named(newGroups, name);
      if (!o || !n) {
        const missing = !o ? files.old : files.new;
        throw new RobotsAuditError(
          'ERR_USAGE',
          `--agent ${name}: ${missing} has no verdict columns for it (it has ${listed(!o ? oldGroups : newGroups)})`,
          { option: 'agent' },
        );
      }
      const shown = n.name === UNNAMED_AGENT ? (o.name === UNNAMED_AGENT ? name : o.name) : n.name;
      if (!pairs.some((p) => p.old === o)) pairs.push({ name: shown, old: o, new: n });
    }
    return pairs;
  }
  const onlyOld = oldGroups.filter((g) => !find(newGroups, g.name));
  const onlyNew = newGroups.filter((g) => !find(oldGroups, g.name));
  if (onlyOld.length > 0 || onlyNew.length > 0) {
    const parts = [
      ...(onlyOld.length > 0 ? [`${listed(onlyOld)} only in ${files.old}`] : []),
      ...(onlyNew.length > 0 ? [`${listed(onlyNew)} only in ${files.new}`] : []),
    ];
    const common = oldGroups.filter((g) => find(newGroups, g.name) && g.name !== ROW_AGENT);
    const unnamed = [...onlyOld, ...onlyNew].some((g) => g.name === UNNAMED_AGENT);
    const hint =
      common.length > 0
        ? `compare the common ones with ${common.map((g) => `--agent ${g.name}`).join(' ')}`
        : unnamed
          ? 'name the agent of the one-agent run with --agent A'
          : 'the files have no agent in common';
    throw new RobotsAuditError('ERR_USAGE', `the agents differ: ${parts.join('; ')}: ${hint}`, {
      option: 'agent',
    });
  }
  return oldGroups.map((g) => ({
    name: find(newGroups, g.name)!.name,
    old: g,
    new: find(newGroups, g.name)!,
  }));
}

function listed(groups: readonly VerdictGroup[]): string {
  return groups.length === 0 ? 'none' : groups.map((g) => shownAgent(g.name)).join(', ');
}
