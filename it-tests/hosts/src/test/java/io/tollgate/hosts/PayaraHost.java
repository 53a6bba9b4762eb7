package io.tollgate.hosts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Payara Micro inside one host, started as {@code server-config/payara} documents: {@code java @jvm.args -jar
 * payara-micro.jar <the options of payara-micro.options> --clustername <name> --name host<i> --port <port> --deploy
 * <war>}, with these changes for a host of its own:
 * <ul>
 * <li>{@code --interfaces} the host's address, {@code --clustermode tcpip:<address>:<grid port>,...} the addresses of
 * the Data Grid's hosts (every host unless {@link Builder#members(int...)}), the grid port the options'
 * {@code --startport};</li>
 * <li>{@code --prebootcommandfile}: a copy of {@code preboot.asadmin} with the HTTP listener on the host's address
 * instead of 127.0.0.1;</li>
 * <li>{@code --logtofile <payara folder>/payara.log} (written as {@code payara.log.0}), and
 * {@code --systemproperties} with the builder's {@link Builder#config(String, String) config} (MicroProfile Config
 * reads system properties; readable by the owner only);</li>
 * <li>JVM options after {@code @jvm.args}: {@code -Xmx512m} (as the it-tests), the tests' JIT and GC flags,
 * {@code -Duser.home} (the host's home), {@code -Djava.io.tmpdir} (where Payara Micro unpacks itself), and the
 * builder's {@link Builder#jvmOption(String) options}.</li>
 * </ul>
 * The WAR must not bundle Hazelcast: Tollgate uses Payara's Data Grid ({@link SampleWar#forPayara}).
 */
public final class PayaraHost extends ServerHost {

    /** The port of {@link Builder#httpPort(int)} unless set. */
    public static final int DEFAULT_HTTP_PORT = 8080;
    /** Payara Micro options whose argument is a file (relative to the options file's folder). */
    private static final Set<String> FILE_OPTIONS = Set.of("--prebootcommandfile", "--postbootcommandfile",
            "--postdeploycommandfile", "--hzconfigfile", "--systemproperties", "--logproperties", "--domainconfig",
            "--addlibs", "--addjars", "--rootdir");
    private static final Pattern READY = Pattern.compile("Payara Micro[^\\n]* ready in [^\\n]*");
    private static final String LOADING_FAILED = "Exception while loading the app";
    /** The record after the first, with the cause. */
    private static final String LOADING_FAILED_BECAUSE = LOADING_FAILED + " : ";

    private static final String LOG = "payara.log";

    private final List<String> command;

    private PayaraHost(Builder builder) {
        super(builder, "payara");
        try {
            this.command = write(builder);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the Payara Micro files of " + this, e);
        }
    }

    /** Payara Micro for host i; {@link Builder#start()} starts it. */
    public static Builder on(Hosts hosts, int host) {
        return new Builder(hosts, host);
    }

    private List<String> write(Builder builder) throws IOException {
        Path production = Rig.serverConfig().resolve("payara");
        Path war = dir().resolve(builder.war.getName());
        exportWar(builder.war, war);

        List<String> options = productionOptions(production.resolve("payara-micro.options"));
        String gridPort = value(options, "--startport", "6900");
        int[] members = builder.members != null ? builder.members
                : java.util.stream.IntStream.rangeClosed(1, hosts().count()).toArray();
        String clusterMode = "tcpip:" + Arrays.stream(members)
                .mapToObj(h -> hosts().address(h) + ":" + gridPort).collect(Collectors.joining(","));
        Path preboot = dir().resolve("preboot.asadmin");
        Files.writeString(preboot, Files.readString(production.resolve("preboot.asadmin")).replace("127.0.0.1", address()));
        replace(options, "--interfaces", address());
        replace(options, "--clustermode", clusterMode);
        replace(options, "--prebootcommandfile", preboot.toString());

        List<String> words = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "@" + production.resolve("jvm.args"), "-Xmx512m"));
        words.addAll(Rig.jvmFlags());
        words.add("-Duser.home=" + home());
        words.add("-Djava.io.tmpdir=" + Files.createDirectories(dir().resolve("tmp")));
        words.addAll(builder.jvmOptions);
        words.addAll(List.of("-jar", Rig.payaraMicroJar().toString()));
        words.addAll(options);
        words.addAll(List.of("--clustername", builder.clusterName != null ? builder.clusterName : defaultClusterName(),
                "--name", "host" + host(), "--port", Integer.toString(httpPort()), "--deploy", war.toString(),
                "--logtofile", dir().resolve(LOG).toString()));
        words.addAll(builder.options);
        if (!builder.config.isEmpty()) {
            Path properties = dir().resolve("system.properties");
            writePrivateProperties(properties, builder.config,
                    " MicroProfile Config properties of this server (the tests' host rig)");
            words.addAll(List.of("--systemproperties", properties.toString()));
        }
        return List.copyOf(words);
    }

    private String defaultClusterName() {
        return "tgr-" + Rig.run() + "-" + hosts().dir().getFileName();
    }

    /** The options of payara-micro.options, a word each (lines starting with # left out), files made absolute. */
    private static List<String> productionOptions(Path file) throws IOException {
        List<String> words = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            String text = line.strip();
            if (text.isEmpty() || text.startsWith("#")) {
                continue;
            }
            for (String word : text.split("\\s+")) {
                String previous = words.isEmpty() ? "" : words.get(words.size() - 1);
                if (FILE_OPTIONS.contains(previous.toLowerCase(Locale.ROOT)) && !Path.of(word).isAbsolute()) {
                    word = file.toAbsolutePath().getParent().resolve(word).normalize().toString();
                }
                words.add(word);
            }
        }
        return words;
    }

    private static String value(List<String> options, String option, String otherwise) {
        int at = indexOf(options, option);
        return at >= 0 && at + 1 < options.size() ? options.get(at + 1) : otherwise;
    }

    /** Sets an option's value (adds the option if it is not there). */
    private static void replace(List<String> options, String option, String value) {
        int at = indexOf(options, option);
        if (at >= 0 && at + 1 < options.size()) {
            options.set(at + 1, value);
        } else {
            options.addAll(List.of(option, value));
        }
    }

    private static int indexOf(List<String> options, String option) {
        for (int i = 0; i < options.size(); i++) {
            if (options.get(i).equalsIgnoreCase(option)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * @return the log file: {@code --logtofile <payara folder>/payara.log}, to which Payara Micro's file handler
     *         appends its generation ({@code payara.log.0})
     */
    public Path logFile() {
        return dir().resolve(LOG + ".0");
    }

    @Override
    public Path log() {
        return logFile();
    }

    /** @return the whole command line the server runs with (inside its host) */
    public List<String> commandLine() {
        return command;
    }

    @Override
    List<String> command() {
        return command;
    }

    @Override
    void beforeStart() throws IOException {
        moveAside(logFile());
    }

    /**
     * From the console (the same records as the log file, which Payara Micro writes only once its logging is
     * configured): started once Payara Micro is ready with the application among its deployments; failed when it
     * reports an exception while loading the application (Payara Micro then goes on without it), or is ready
     * without it.
     */
    @Override
    Startup startup(Duration took) throws IOException {
        String console = consoleSinceStart();
        Matcher ready = READY.matcher(console);
        boolean isReady = ready.find();
        int because = console.indexOf(LOADING_FAILED_BECAUSE);
        if (because >= 0) {
            return new Startup(false, record(console, because), took);
        }
        int failed = console.indexOf(LOADING_FAILED);
        if (failed >= 0 && isReady) {
            return new Startup(false, record(console, failed), took);
        }
        if (!isReady) {
            return null;
        }
        if (console.contains("\"Context Root\": \"/" + application() + "\"") || console.contains("/" + application() + "\n")) {
            return new Startup(true, ready.group(), took);
        }
        return new Startup(false, "Payara Micro is ready without " + application() + " among its deployments: "
                + ready.group(), took);
    }

    /** The settings of one Payara Micro; {@link #start()} writes them and starts it. */
    public static final class Builder extends ServerHost.Builder<Builder, PayaraHost> {

        private String clusterName;
        private int[] members;
        private final List<String> options = new ArrayList<>();

        private Builder(Hosts hosts, int host) {
            super(hosts, host, DEFAULT_HTTP_PORT);
        }

        /** {@code --clustername}: the Data Grid's name, the same on each of its members (made up per rig unless set). */
        public Builder clusterName(String name) {
            this.clusterName = name;
            return this;
        }

        /** The hosts of the Data Grid ({@code --clustermode tcpip:...}); every host unless set. */
        public Builder members(int... hosts) {
            Arrays.stream(hosts).forEach(this.hosts::address);
            this.members = hosts.clone();
            return this;
        }

        /** Payara Micro options of the test's beyond the production ones, such as {@code --lite}. */
        public Builder option(String... words) {
            options.addAll(List.of(words));
            return this;
        }

        @Override
        public PayaraHost start() {
            PayaraHost server = new PayaraHost(this);
            server.start();
            return server;
        }
    }
}
