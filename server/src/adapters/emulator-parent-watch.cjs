// Preloaded (node --require) into the Firebase Auth emulator's process by firebase-emulator.ts. When the process
// that started it goes away, however it ended (kill -9 included), the emulator is asked to stop as Ctrl+C would
// (it exports its accounts on the way out), and is ended if it has not stopped within 20 s. An orphan is
// re-parented, so a changed parent process id is the sign.
const parent = process.ppid;

// Until the CLI says it is ready it has nothing to export yet: an orphan then exits at once.
let ready = false;
for (const stream of [process.stdout, process.stderr]) {
  const write = stream.write.bind(stream);
  stream.write = (chunk, ...rest) => {
    if (!ready && /All emulators ready/.test(String(chunk))) ready = true;
    return write(chunk, ...rest);
  };
}

// Its output goes to pipes the parent reads. With the parent gone, the CLI's "exporting" lines fail with EPIPE,
// which ended the process before the accounts were written: such failures are dropped.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

const watch = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(watch);
  if (!ready) process.exit(1);
  process.kill(process.pid, 'SIGINT');
  setTimeout(() => process.exit(1), 20_000).unref();
}, 250);
watch.unref();
