package io.tollgate.hosts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * Hosts on one machine: each host a Linux network namespace of its own ({@code tgr1}, {@code tgr2}, ...) with one
 * interface, {@code eth0}, at {@code 198.18.0.<i>/24}, plugged into a bridge ({@code tgrbr}) on which the test JVM,
 * outside every namespace, has {@value #TEST_JVM_ADDRESS}. The hosts have no default route: they reach each other
 * and the test JVM, nothing else. Servers started in a host bind to the host's address and cannot see another
 * host's ports, as on separate machines.
 *
 * <p>Links between hosts can be cut and healed while the test JVM still reaches every host: a cut of hosts i and j
 * is a {@code tc} filter on each one's bridge port (the ingress of its veth) that redirects the packets for the other
 * host's address to a veth that is down ({@code tgrdrop}), where they are dropped. The kernel here has no netem;
 * a cut is a silent drop, as a pulled cable (no RST, no ICMP).
 *
 * <p>Needs root and iproute2 ({@link #availability()} says whether this machine can, and if not why). One rig at a
 * time per machine: {@link #create(int)} takes a lock file (waiting for a rig of another JVM to end), then removes
 * what an earlier run that died left behind (every namespace, link and {@code /etc/netns} folder named
 * {@code tgr...}, and the processes in those namespaces), then makes the hosts. {@link #close()} ends every process
 * in the hosts (with their descendants) and removes all it made; a JVM shutdown hook does the same if the test JVM
 * ends without closing.
 *
 * <pre>{@code
 * try (Hosts hosts = Hosts.create(3)) {
 *     ...start servers on hosts 1, 2, 3 (LibertyHost, PayaraHost)...
 *     hosts.isolate(3);   // 3 reaches neither 1 nor 2; the test JVM still reaches all three
 *     hosts.rejoin(3);
 * }
 * }</pre>
 */
public final class Hosts implements AutoCloseable {

    /** The start of every name the rig gives to a namespace, a link or an {@code /etc/netns} folder. */
    public static final String PREFIX = "tgr";
    /** The test JVM's address on the hosts' bridge. */
    public static final String TEST_JVM_ADDRESS = "198.18.0.254";
    /** At most this many hosts (198.18.0.1 ... 198.18.0.200). */
    public static final int MAX_HOSTS = 200;

    private static final String SUBNET = "198.18.0.";
    private static final String BRIDGE = PREFIX + "br";
    private static final String DROP = PREFIX + "drop";
    private static final String DROP_PEER = PREFIX + "drop2";
    /** Namespaces of {@link #availability()}'s probe: {@code tgrp<pid>}. */
    private static final String PROBE = PREFIX + "p";
    private static final Path NETNS_ETC = Path.of("/etc/netns");
    /** One rig per machine: the lock is held from {@link #create(int)} to the end of {@link #close()}. */
    private static final Path LOCK_FILE = Path.of("/tmp/tollgate-hosts.lock");
    private static final Duration LOCK_WAIT = Duration.ofSeconds(Long.getLong("hosts.lock.wait.seconds", 1200));
    /**
     * How long {@link #close()} waits after SIGTERM. Short: servers stopped all at once can take minutes (members of one
     * Hazelcast cluster shutting down together wait for each other's partition hand-offs); a test that wants a server
     * stopped gracefully stops it itself ({@link ServerHost#stop()}).
     */
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(3);

    private static Availability availability;
    private static Hosts open;

    private final int count;
    private final Path dir;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final Thread shutdownHook;
    private final List<Process> processes = new ArrayList<>();
    /** Each cut link as "i-j", i < j. */
    private final Set<String> cuts = new LinkedHashSet<>();
    /** The names of {@link #hostsFile(String, int...)}, with their hosts. */
    private final Map<String, int[]> names = new LinkedHashMap<>();
    private boolean closed;

    /**
     * Whether this machine can have hosts, and if not why: Linux, root, {@code ip} and {@code tc} of iproute2, and a
     * namespace with a veth, a bridge and a cut (tc ingress, u32, mirred) made and removed again as a probe. Tests
     * skip with its reason: {@code assumeTrue(Hosts.availability().available(), Hosts.availability().reason())}.
     * Probed once per JVM.
     */
    public static synchronized Availability availability() {
        if (availability == null) {
            availability = probe();
        }
        return availability;
    }

    /**
     * Makes {@code n} hosts, 1 to n, at 198.18.0.1 to 198.18.0.n (their folders under {@code target/hosts/run-<k>}),
     * after removing what an earlier run left behind. Waits (at most {@code hosts.lock.wait.seconds}, 1200) while a
     * rig of another JVM runs. Only one rig per JVM at a time.
     *
     * @throws IllegalStateException if the machine cannot have hosts ({@link #availability()}), or a command fails
     *         (the command and its stderr), or another rig is open in this JVM
     */
    public static Hosts create(int n) {
        if (n < 1 || n > MAX_HOSTS) {
            throw new IllegalArgumentException("between 1 and " + MAX_HOSTS + " hosts, not " + n);
        }
        Availability here = availability();
        if (!here.available()) {
            throw new IllegalStateException("no hosts on this machine: " + here.reason());
        }
        synchronized (Hosts.class) {
            if (open != null) {
                throw new IllegalStateException("a rig of " + open.count + " hosts is open in this JVM: close it first");
            }
            Hosts hosts = new Hosts(n);
            open = hosts;
            return hosts;
        }
    }

    private Hosts(int n) {
        this.count = n;
        long t0 = System.nanoTime();
        try {
            this.lockChannel = FileChannel.open(LOCK_FILE, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the rig's lock file " + LOCK_FILE, e);
        }
        try {
            this.lock = acquireLock(lockChannel);
        } catch (RuntimeException e) {
            try {
                lockChannel.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        this.shutdownHook = new Thread(this::close, "hosts-rig-shutdown");
        try {
            List<String> removed = removeEverything();
            if (!removed.isEmpty()) {
                System.out.println("[it] hosts: removed what an earlier run left: " + removed);
            }
            this.dir = newRunDir();
            Runtime.getRuntime().addShutdownHook(shutdownHook);
            make();
        } catch (RuntimeException e) {
            try {
                close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        System.out.println("[it] hosts: " + n + " hosts (" + address(1) + (n > 1 ? " ... " + address(n) : "")
                + ", the test JVM at " + TEST_JVM_ADDRESS + ") made in " + (System.nanoTime() - t0) / 1_000_000
                + " ms; their files in " + dir);
    }

    private void make() {
        ip("link", "add", BRIDGE, "type", "bridge", "forward_delay", "0");
        ip("addr", "add", TEST_JVM_ADDRESS + "/24", "dev", BRIDGE);
        ip("link", "set", BRIDGE, "up");
        // the end of every cut link's packets: a veth pair left down
        ip("link", "add", DROP, "type", "veth", "peer", "name", DROP_PEER);
        for (int i = 1; i <= count; i++) {
            String ns = namespace(i);
            ip("netns", "add", ns);
            ip("link", "add", veth(i), "type", "veth", "peer", "name", "eth0", "netns", ns);
            ip("link", "set", veth(i), "master", BRIDGE, "up");
            ip("-n", ns, "addr", "add", address(i) + "/24", "dev", "eth0");
            ip("-n", ns, "link", "set", "eth0", "up");
            ip("-n", ns, "link", "set", "lo", "up");
            tc("qdisc", "add", "dev", veth(i), "ingress");
            try {
                Files.createDirectories(dir(i));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        writeHostsFiles();
    }

    /** @return the number of hosts */
    public int count() {
        return count;
    }

    /** @return host i's address, {@code 198.18.0.<i>} */
    public String address(int i) {
        check(i);
        return SUBNET + i;
    }

    /** @return the addresses of these hosts, in this order */
    public List<String> addresses(int... hosts) {
        return Arrays.stream(hosts).mapToObj(this::address).toList();
    }

    /** @return the addresses of every host, 1 to n */
    public List<String> addresses() {
        return addresses(all());
    }

    /** @return host i's network namespace, {@code tgr<i>} */
    public String namespace(int i) {
        check(i);
        return PREFIX + i;
    }

    /** @return the folder of this rig's files ({@code target/hosts/run-<k>}) */
    public Path dir() {
        return dir;
    }

    /** @return host i's folder (its servers' files, its {@code user.home}): {@code target/hosts/run-<k>/host<i>} */
    public Path dir(int i) {
        check(i);
        return dir.resolve("host" + i);
    }

    /**
     * A command to run inside host i ({@code ip netns exec tgr<i> ...}); start it with {@link #start(ProcessBuilder)}
     * so that {@link #close()} ends it (it ends every process still in a host anyway).
     */
    public ProcessBuilder exec(int i, String... command) {
        check(i);
        List<String> words = new ArrayList<>(List.of(ip(), "netns", "exec", namespace(i)));
        words.addAll(List.of(command));
        return new ProcessBuilder(words);
    }

    /** Starts a process (of {@link #exec(int, String...)}) that {@link #close()} ends, with its descendants. */
    public synchronized Process start(ProcessBuilder command) {
        if (closed) {
            throw new IllegalStateException("the hosts are closed");
        }
        try {
            Process process = command.start();
            processes.add(process);
            return process;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + String.join(" ", command.command()), e);
        }
    }

    /**
     * Cuts the link between hosts i and j, both ways: their packets to each other are dropped (silently, like a
     * pulled cable); each still reaches the other hosts and the test JVM. Nothing happens if it is cut already.
     */
    public synchronized void cut(int i, int j) {
        String link = link(i, j);
        if (cuts.contains(link)) {
            return;
        }
        drop(i, j);
        try {
            drop(j, i);
        } catch (RuntimeException e) {
            undrop(i, j);
            throw e;
        }
        cuts.add(link);
    }

    /** Restores the link between hosts i and j. Nothing happens if it is not cut. */
    public synchronized void heal(int i, int j) {
        String link = link(i, j);
        if (!cuts.contains(link)) {
            return;
        }
        undrop(i, j);
        undrop(j, i);
        cuts.remove(link);
    }

    /** Cuts host i from every other host; the test JVM still reaches it. */
    public synchronized void isolate(int i) {
        check(i);
        for (int j = 1; j <= count; j++) {
            if (j != i) {
                cut(i, j);
            }
        }
    }

    /** Restores every link of host i. */
    public synchronized void rejoin(int i) {
        check(i);
        for (int j = 1; j <= count; j++) {
            if (j != i) {
                heal(i, j);
            }
        }
    }

    /**
     * Cuts every link between hosts of different groups, e.g. {@code partition(new int[] {1, 2}, new int[] {3})};
     * links inside a group are left as they are.
     */
    public synchronized void partition(int[]... groups) {
        for (int g = 0; g < groups.length; g++) {
            for (int h = g + 1; h < groups.length; h++) {
                for (int i : groups[g]) {
                    for (int j : groups[h]) {
                        cut(i, j);
                    }
                }
            }
        }
    }

    /** Restores every cut link. */
    public synchronized void healAll() {
        for (String link : List.copyOf(cuts)) {
            String[] ends = link.split("-");
            heal(Integer.parseInt(ends[0]), Integer.parseInt(ends[1]));
        }
    }

    /** @return whether the link between hosts i and j is cut */
    public synchronized boolean isCut(int i, int j) {
        return cuts.contains(link(i, j));
    }

    /**
     * Whether a TCP connection from host {@code from} to host {@code to}'s address and {@code port} gets an answer
     * within 3 s: accepted, or refused (the host answered; nothing listens there). False when the packets are
     * dropped (a cut). Runs bash's {@code /dev/tcp} inside host {@code from}.
     */
    public boolean reaches(int from, int to, int port) {
        String target = address(to);
        Command.Result result = Command.attempt(PROBE_TIMEOUT.toSeconds() + 10, exec(from, "timeout",
                Long.toString(PROBE_TIMEOUT.toSeconds()), "bash", "-c", "exec 3<>/dev/tcp/" + target + "/" + port)
                .command().toArray(String[]::new));
        if (result.succeeded() || result.stderr().contains("Connection refused")) {
            return true;
        }
        if (result.exitCode() == 124) { // timeout's code: no answer
            return false;
        }
        throw new Command.Failed(result);
    }

    /**
     * Makes {@code name} resolve, inside every host, to the addresses of {@code hosts} (in this order; Java's
     * {@code InetAddress.getAllByName(name)} returns them all): lines of {@code /etc/netns/<namespace>/hosts}, which
     * {@code ip netns exec} shows as {@code /etc/hosts}. Replaces what an earlier call gave the name; no hosts removes
     * it. Every host's file also has {@code localhost}, {@code host1} ... {@code host<n>}, and the machine's host name
     * for the host's own address.
     */
    public synchronized void hostsFile(String name, int... hosts) {
        if (!name.matches("[A-Za-z0-9.-]+")) {
            throw new IllegalArgumentException("not a host name: " + name);
        }
        Arrays.stream(hosts).forEach(this::check);
        if (hosts.length == 0) {
            names.remove(name);
        } else {
            names.put(name, hosts.clone());
        }
        writeHostsFiles();
    }

    /**
     * Ends every process started in the hosts (SIGTERM to each with its descendants, SIGKILL to what is left after
     * 10 s, then SIGKILL to anything still in a namespace), and removes the namespaces, links (with their tc filters),
     * and {@code /etc/netns} folders. Safe to call twice.
     *
     * @throws IllegalStateException if something named {@code tgr...} is left afterwards (listed)
     */
    @Override
    public void close() {
        List<String> problems = new ArrayList<>();
        long t0 = System.nanoTime();
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            try {
                List<ProcessHandle> started = processes.stream().map(Process::toHandle).filter(ProcessHandle::isAlive).toList();
                if (!started.isEmpty() && !ProcessTrees.terminate(started, STOP_GRACE)) {
                    System.out.println("[it] hosts: killed what did not end within " + STOP_GRACE.toSeconds() + " s of SIGTERM");
                }
                removeEverything();
            } catch (RuntimeException e) {
                problems.add(e.toString());
            } finally {
                try {
                    Runtime.getRuntime().removeShutdownHook(shutdownHook);
                } catch (IllegalStateException | IllegalArgumentException inShutdownOrNotAdded) {
                    // the JVM is ending (this is the hook), or the hook was never added
                }
                releaseLock();
                synchronized (Hosts.class) {
                    if (open == this) {
                        open = null;
                    }
                }
            }
        }
        problems.addAll(leftovers());
        if (!problems.isEmpty()) {
            throw new IllegalStateException("the hosts were not removed completely: " + problems);
        }
        System.out.println("[it] hosts: " + count + " hosts and their processes removed in "
                + (System.nanoTime() - t0) / 1_000_000 + " ms");
    }

    /**
     * What the rig's names or processes still hold on this machine: namespaces, links and {@code /etc/netns} folders
     * named {@code tgr...}, and processes whose command line names the rig's folder ({@code target/hosts}), but not
     * those of a probe of a live JVM. Empty after {@link #close()}.
     */
    public static List<String> leftovers() {
        List<String> left = new ArrayList<>();
        namespaces().forEach(ns -> left.add("namespace " + ns));
        links().forEach(link -> left.add("link " + link));
        netnsDirs().forEach(netns -> left.add("folder " + netns));
        strayProcesses().forEach(process -> left.add("process " + process.pid() + " "
                + process.info().commandLine().orElse("?")));
        return left;
    }

    // ---- cuts ----

    private void drop(int from, int to) {
        tc("filter", "add", "dev", veth(from), "ingress", "pref", Integer.toString(pref(to)), "protocol", "ip",
                "u32", "match", "ip", "dst", address(to) + "/32", "action", "mirred", "egress", "redirect", "dev", DROP);
    }

    private void undrop(int from, int to) {
        tc("filter", "del", "dev", veth(from), "ingress", "pref", Integer.toString(pref(to)), "protocol", "ip", "u32");
    }

    /** One filter priority per destination host, so that each cut's filter is removed alone. */
    private static int pref(int host) {
        return 1000 + host;
    }

    private String link(int i, int j) {
        check(i);
        check(j);
        if (i == j) {
            throw new IllegalArgumentException("a host has no link to itself: " + i);
        }
        return Math.min(i, j) + "-" + Math.max(i, j);
    }

    // ---- hosts files ----

    private void writeHostsFiles() {
        String machine = machineHostName();
        for (int i = 1; i <= count; i++) {
            List<String> lines = new ArrayList<>(List.of(
                    "# host " + i + " of " + count + " (the tests' host rig, io.tollgate.hosts.Hosts)",
                    "127.0.0.1 localhost",
                    "::1 localhost ip6-localhost ip6-loopback"));
            if (!machine.isEmpty()) {
                lines.add(address(i) + " " + machine);
            }
            for (int h = 1; h <= count; h++) {
                lines.add(address(h) + " host" + h);
            }
            names.forEach((name, hosts) -> Arrays.stream(hosts).forEach(h -> lines.add(address(h) + " " + name)));
            Path file = NETNS_ETC.resolve(namespace(i)).resolve("hosts");
            try {
                Files.createDirectories(file.getParent());
                Files.write(file, lines, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + file, e);
            }
        }
    }

    private static String machineHostName() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        } catch (IOException e) {
            return "";
        }
    }

    // ---- removal ----

    /**
     * Ends the processes in the rig's namespaces and those naming its folder, then removes every link, namespace and
     * {@code /etc/netns} folder named {@code tgr...} (not a live JVM's probe). Deleting a link removes its tc
     * filters, and a veth pair goes with either end.
     *
     * @return what it removed
     */
    private static List<String> removeEverything() {
        List<String> removed = new ArrayList<>();
        Set<ProcessHandle> inHosts = new LinkedHashSet<>(strayProcesses());
        for (String ns : namespaces()) {
            for (String pid : Command.run(ip(), "netns", "pids", ns).split("\\s+")) {
                if (!pid.isBlank()) {
                    ProcessHandle.of(Long.parseLong(pid.strip())).ifPresent(inHosts::add);
                }
            }
        }
        if (!inHosts.isEmpty()) {
            inHosts.forEach(p -> removed.add("process " + p.pid()));
            ProcessTrees.kill(inHosts);
        }
        for (String link : links()) {
            Command.Result result = Command.attempt(ip(), "link", "del", link);
            if (result.succeeded()) {
                removed.add("link " + link);
            } else if (links().contains(link)) { // not gone with its peer
                throw new Command.Failed(result);
            }
        }
        for (String ns : namespaces()) {
            ip("netns", "del", ns);
            removed.add("namespace " + ns);
        }
        for (Path netns : netnsDirs()) {
            deleteRecursively(netns);
            removed.add("folder " + netns);
        }
        return removed;
    }

    private static List<String> namespaces() {
        return Command.run(ip(), "netns", "list").lines()
                .map(line -> line.strip().split("\\s+")[0])
                .filter(Hosts::ours)
                .toList();
    }

    private static List<String> links() {
        return Command.run(ip(), "-o", "link", "show").lines()
                .map(line -> line.split(":\\s+", 3))
                .filter(fields -> fields.length >= 2)
                .map(fields -> fields[1].split("@")[0].strip())
                .filter(Hosts::ours)
                .toList();
    }

    private static List<Path> netnsDirs() {
        if (!Files.isDirectory(NETNS_ETC)) {
            return List.of();
        }
        try (Stream<Path> entries = Files.list(NETNS_ETC)) {
            return entries.filter(p -> ours(p.getFileName().toString())).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Processes (not this JVM or its ancestors) whose command line names the rig's folder. */
    private static List<ProcessHandle> strayProcesses() {
        String work = System.getProperty("hosts.work");
        if (work == null || work.isBlank()) {
            return List.of();
        }
        String folder = Path.of(work).toAbsolutePath() + "/";
        Set<Long> mine = new LinkedHashSet<>();
        for (Optional<ProcessHandle> p = Optional.of(ProcessHandle.current()); p.isPresent(); p = p.get().parent()) {
            mine.add(p.get().pid());
        }
        return ProcessHandle.allProcesses()
                .filter(p -> !mine.contains(p.pid()))
                .filter(p -> p.info().commandLine().map(line -> line.contains(folder)).orElse(false))
                .toList();
    }

    /** A name of the rig's, but not the probe of a JVM that still runs. */
    private static boolean ours(String name) {
        if (!name.startsWith(PREFIX)) {
            return false;
        }
        if (name.startsWith(PROBE)) {
            String digits = name.substring(PROBE.length()).replaceAll("\\D.*$", "");
            return digits.isEmpty() || ProcessHandle.of(Long.parseLong(digits)).map(p -> !p.isAlive()).orElse(true);
        }
        return true;
    }

    private static void deleteRecursively(Path path) {
        try (Stream<Path> tree = Files.walk(path)) {
            for (Path p : tree.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + path, e);
        }
    }

    // ---- the lock ----

    private static FileLock acquireLock(FileChannel channel) {
        long deadline = System.nanoTime() + LOCK_WAIT.toNanos();
        boolean told = false;
        try {
            while (true) {
                FileLock lock = channel.tryLock();
                if (lock != null) {
                    channel.truncate(0);
                    channel.write(StandardCharsets.UTF_8.encode("pid " + ProcessHandle.current().pid() + "\n"), 0);
                    return lock;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("another run of the hosts rig (" + lockHolder()
                            + ") held " + LOCK_FILE + " for " + LOCK_WAIT.toSeconds() + " s");
                }
                if (!told) {
                    System.out.println("[it] hosts: waiting for another run of the rig (" + lockHolder() + ") to end");
                    told = true;
                }
                Thread.sleep(1000);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock " + LOCK_FILE, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + LOCK_FILE, e);
        }
    }

    private static String lockHolder() {
        try {
            return Files.readString(LOCK_FILE).strip();
        } catch (IOException e) {
            return "unknown";
        }
    }

    private void releaseLock() {
        try {
            if (lock != null && lock.isValid()) {
                lock.release();
            }
            lockChannel.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot release " + LOCK_FILE, e);
        }
    }

    // ---- the probe ----

    private static Availability probe() {
        String os = System.getProperty("os.name", "");
        if (!os.toLowerCase(Locale.ROOT).contains("linux")) {
            return Availability.no("hosts are Linux network namespaces; this is " + os);
        }
        long uid = effectiveUid();
        if (uid != 0) {
            return Availability.no("hosts need root (network namespaces, veth pairs, a bridge, tc filters); the tests"
                    + " run as uid " + uid);
        }
        for (String tool : List.of("ip", "tc")) {
            if (Command.find(tool).isEmpty()) {
                return Availability.no("iproute2 is missing: no `" + tool + "` on the PATH or in /usr/sbin, /sbin"
                        + " (install the package iproute2)");
            }
        }
        for (String tool : List.of("bash", "timeout")) {
            if (Command.find(tool).isEmpty()) {
                return Availability.no("`" + tool + "` is missing (the rig's reachability probe runs"
                        + " `timeout 3 bash -c 'exec 3<>/dev/tcp/...'` inside a host)");
            }
        }
        String ns = PROBE + ProcessHandle.current().pid();
        try {
            ip("netns", "add", ns);
            ip("link", "add", ns + "v", "type", "veth", "peer", "name", "eth0", "netns", ns);
            ip("link", "add", ns + "b", "type", "bridge");
            ip("link", "set", ns + "v", "master", ns + "b", "up");
            ip("link", "add", ns + "d", "type", "veth", "peer", "name", ns + "e");
            tc("qdisc", "add", "dev", ns + "v", "ingress");
            tc("filter", "add", "dev", ns + "v", "ingress", "pref", "1001", "protocol", "ip", "u32", "match", "ip",
                    "dst", SUBNET + "1/32", "action", "mirred", "egress", "redirect", "dev", ns + "d");
            Command.run(ip(), "netns", "exec", ns, "true");
            return new Availability(true, "network namespaces, veth pairs, a bridge and tc cuts work here");
        } catch (RuntimeException e) {
            return Availability.no("cannot make a host here: " + e.getMessage());
        } finally {
            for (String link : List.of(ns + "v", ns + "b", ns + "d")) {
                Command.attempt(ip(), "link", "del", link);
            }
            Command.attempt(ip(), "netns", "del", ns);
        }
    }

    private static long effectiveUid() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    return Long.parseLong(line.substring(4).strip().split("\\s+")[1]);
                }
            }
        } catch (IOException | RuntimeException e) {
            // fall through
        }
        return "root".equals(System.getProperty("user.name")) ? 0 : -1;
    }

    /**
     * Whether this machine can have hosts.
     *
     * @param available true if {@link #create(int)} can make hosts here
     * @param reason what is missing, for a test's skip message (or what works)
     */
    public record Availability(boolean available, String reason) {

        static Availability no(String reason) {
            return new Availability(false, reason);
        }
    }

    // ---- helpers ----

    private Path newRunDir() {
        Path root = Rig.work();
        try {
            Files.createDirectories(root);
            for (int k = 1;; k++) {
                Path run = root.resolve("run-" + k);
                if (!Files.exists(run)) {
                    Files.createDirectories(run,
                            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                    return run;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a folder in " + root, e);
        }
    }

    private int[] all() {
        return IntStream.rangeClosed(1, count).toArray();
    }

    private void check(int i) {
        if (i < 1 || i > count) {
            throw new IllegalArgumentException("no host " + i + ": the hosts are 1 to " + count);
        }
    }

    private String veth(int i) {
        return PREFIX + "v" + i;
    }

    private static String ip() {
        return Command.find("ip").map(Path::toString).orElse("ip");
    }

    private static String tc() {
        return Command.find("tc").map(Path::toString).orElse("tc");
    }

    private static void ip(String... args) {
        Command.run(prepend(ip(), args));
    }

    private static void tc(String... args) {
        Command.run(prepend(tc(), args));
    }

    private static String[] prepend(String first, String... rest) {
        String[] words = new String[rest.length + 1];
        words[0] = first;
        System.arraycopy(rest, 0, words, 1, rest.length);
        return words;
    }

    @Override
    public String toString() {
        return count + " hosts " + addresses() + (cuts.isEmpty() ? "" : ", cut: " + String.join(", ", cuts));
    }
}
