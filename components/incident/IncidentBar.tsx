'use client';
/**
 * The console header's incident controls (its one mount point): on a saved or imported timeline,
 * its title, notes and annotations, Copy link and Export; on the live console, marking a period,
 * saving it, and importing a file.
 */
import { LiveBar } from './LiveBar';
import { SharedBar } from './SharedBar';
import { useSharedTimeline } from './shared-context';
import './incident.css';

export function IncidentBar() {
  const shared = useSharedTimeline();
  return shared ? <SharedBar timeline={shared} /> : <LiveBar />;
}
