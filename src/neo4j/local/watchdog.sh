# Watchdog of the local Neo4j JVM (started by server.ts as: sh watchdog.sh <service pid> <pid file> java ...).
# It owns the JVM: forwards SIGTERM/SIGINT/SIGHUP to it, and stops it when the service process
# disappears without a clean shutdown (SIGKILL, crash), so no orphan JVM is left. It exits with the
# JVM's status (128 + n for a signal), which the supervisor reads as the server's exit.
parent=$1; pidfile=$2; shift 2
"$@" &
jpid=$!
echo $jpid > "$pidfile"
trap 'kill -TERM $jpid 2>/dev/null; wait $jpid; exit 0' TERM INT HUP
while kill -0 $jpid 2>/dev/null; do
  if ! kill -0 $parent 2>/dev/null; then kill -TERM $jpid; wait $jpid; exit 0; fi
  sleep 1 &
  wait $!
done
wait $jpid
