import { Box, Text } from 'ink';
import { useApp } from '../store-context';
import { color } from '../theme';

/** At start: a bulk job that was interrupted (crash, dropped SSH) is offered for resuming. */
export function ResumeDialog({ width }: { readonly width: number }) {
  const job = useApp((s) => s.resumable);
  if (!job) return null;
  const open = job.lines.filter((l) => l.state === 'pending').length;
  const unsure = job.lines.filter((l) => l.state === 'sending' || l.state === 'unknown').length;
  const done = job.lines.filter((l) => l.state === 'done').length;
  return (
    <Box flexDirection="column" width={width} borderStyle="round" borderColor={color('ui.badge')}>
      <Text
        bold
      >{` A bulk ${job.op} was interrupted (started ${job.createdAt.slice(0, 16).replace('T', ' ')} UTC)`}</Text>
      <Text>{`  ${done} done · ${open} not yet sent · ${unsure} in flight when it stopped (checked with the server first, never re-sent blindly)`}</Text>
      <Text color={color('ui.focus')}> Enter resumes the remaining lines · Esc sets the job aside</Text>
    </Box>
  );
}
