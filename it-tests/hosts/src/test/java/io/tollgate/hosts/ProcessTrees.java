package io.tollgate.hosts;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Ends a process together with its descendants (a child left behind would keep a namespace alive). */
final class ProcessTrees {

    private ProcessTrees() {
    }

    /**
     * SIGTERM to the process and every descendant; after {@code grace}, SIGKILL to what is left of them.
     *
     * @return whether they all ended within the grace period
     */
    static boolean terminate(ProcessHandle root, Duration grace) {
        return terminate(List.of(root), grace);
    }

    /** {@link #terminate(ProcessHandle, Duration)} for several trees at once: one grace period for all. */
    static boolean terminate(Collection<ProcessHandle> roots, Duration grace) {
        List<ProcessHandle> all = withDescendants(roots);
        all.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + grace.toNanos();
        boolean ended = awaitEnd(all, deadline);
        if (!ended) {
            kill(all);
        }
        return ended;
    }

    /** SIGKILL to the process and every descendant, and waits (at most 10 s) until they are gone. */
    static void kill(ProcessHandle root) {
        kill(List.of(root));
    }

    static void kill(Collection<ProcessHandle> roots) {
        List<ProcessHandle> all = withDescendants(roots);
        all.forEach(ProcessHandle::destroyForcibly);
        awaitEnd(all, System.nanoTime() + TimeUnit.SECONDS.toNanos(10));
    }

    /** The processes and their descendants, taken before any of them ends (an orphan is no one's descendant). */
    private static List<ProcessHandle> withDescendants(Collection<ProcessHandle> roots) {
        List<ProcessHandle> all = new ArrayList<>();
        for (ProcessHandle root : roots) {
            root.descendants().forEach(all::add);
            all.add(root);
        }
        return all;
    }

    private static boolean awaitEnd(List<ProcessHandle> processes, long deadline) {
        for (ProcessHandle process : processes) {
            long left = deadline - System.nanoTime();
            if (left <= 0 && process.isAlive()) {
                return false;
            }
            try {
                process.onExit().get(Math.max(left, 0), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                return false;
            }
        }
        return true;
    }
}
