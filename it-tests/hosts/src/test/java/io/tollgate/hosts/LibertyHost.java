package io.tollgate.hosts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An Open Liberty server inside one host, set up as a user would: one runtime for every host ({@code target/liberty/wlp})
 * and a user folder of the host's own ({@code <host folder>/liberty/wlp-usr}, {@code WLP_USER_DIR}) with a server
 * named {@code host<i>}:
 * <ul>
 * <li>{@code server.xml} and {@code jvm.options} copied from {@code server-config/liberty};</li>
 * <li>{@code configDropins/overrides/host.xml}: the HTTP endpoint on the host's address and the server's port;</li>
 * <li>{@code jvm.options} gets the rig's lines after the production ones: {@code -Duser.home} (the host's home: two
 * hosts run as the same account would share {@code ~/.tollgate} otherwise), {@code -Djava.io.tmpdir}, the tests' JIT
 * and GC flags, and the builder's {@link Builder#jvmOption(String) options};</li>
 * <li>{@code bootstrap.properties} (readable by the owner only, as server-config/README.md asks of a cluster name):
 * the builder's {@link Builder#config(String, String) config}, Tollgate's settings, which MicroProfile Config reads
 * there on Open Liberty (e.g. {@code tollgate.hazelcast.interface}, {@code tollgate.hazelcast.members},
 * {@code tollgate.hazelcast.cluster-name});</li>
 * <li>the WAR in {@code dropins}.</li>
 * </ul>
 * Started with {@code ip netns exec tgr<i> <wlp>/bin/server run host<i>} (in the foreground, so that the rig owns the
 * process; {@code server run} executes the JVM in place of the script).
 */
public final class LibertyHost extends ServerHost {

    /** The port of {@link Builder#httpPort(int)} unless set. */
    public static final int DEFAULT_HTTP_PORT = 9080;
    private static final Pattern FAILED = Pattern.compile("(CWWKZ0002E|CWWKZ0004E)[^\\n]*");

    private final Path wlp;
    private final String serverName;

    private LibertyHost(Builder builder) {
        super(builder, "liberty");
        this.wlp = Rig.libertyRuntime();
        this.serverName = "host" + builder.host;
        try {
            writeServer(builder);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the Liberty server of " + this, e);
        }
    }

    /** A Liberty server for host i; {@link Builder#start()} starts it. */
    public static Builder on(Hosts hosts, int host) {
        return new Builder(hosts, host);
    }

    private void writeServer(Builder builder) throws IOException {
        Path production = Rig.serverConfig().resolve("liberty");
        Path server = serverDir();
        Files.createDirectories(server.resolve("configDropins/overrides"));
        Files.createDirectories(server.resolve("dropins"));
        Files.copy(production.resolve("server.xml"), server.resolve("server.xml"));
        List<String> jvmOptions = new ArrayList<>(Files.readAllLines(production.resolve("jvm.options")));
        jvmOptions.add("# added by the tests' host rig (io.tollgate.hosts.LibertyHost)");
        jvmOptions.add("-Duser.home=" + home());
        jvmOptions.add("-Djava.io.tmpdir=" + Files.createDirectories(dir().resolve("tmp")));
        jvmOptions.addAll(Rig.jvmFlags());
        jvmOptions.addAll(builder.jvmOptions);
        Files.write(server.resolve("jvm.options"), jvmOptions);
        Files.writeString(server.resolve("configDropins/overrides/host.xml"), String.join("\n",
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
                "<!-- the tests' host rig: the HTTP endpoint on this host's own address -->",
                "<server>",
                "  <httpEndpoint id=\"defaultHttpEndpoint\" host=\"" + address() + "\" httpPort=\"" + httpPort()
                        + "\" httpsPort=\"-1\"/>",
                "</server>", ""));
        writePrivateProperties(server.resolve("bootstrap.properties"), builder.config,
                " MicroProfile Config properties of this server (the tests' host rig)");
        exportWar(builder.war, server.resolve("dropins").resolve(builder.war.getName()));
    }

    /** @return the user folder of this host's Liberty ({@code WLP_USER_DIR}) */
    public Path userDir() {
        return dir().resolve("wlp-usr");
    }

    /** @return the server's folder ({@code server.xml}, {@code configDropins}, {@code dropins}, {@code logs}) */
    public Path serverDir() {
        return userDir().resolve("servers").resolve(serverName);
    }

    /** @return {@code logs/messages.log} of the server */
    public Path messagesLog() {
        return serverDir().resolve("logs").resolve("messages.log");
    }

    @Override
    public Path log() {
        return messagesLog();
    }

    @Override
    List<String> command() {
        return List.of(wlp.resolve("bin").resolve("server").toString(), "run", serverName);
    }

    @Override
    Map<String, String> environment() {
        return Map.of("WLP_USER_DIR", userDir().toString());
    }

    @Override
    void beforeStart() throws IOException {
        moveAside(messagesLog());
    }

    /**
     * From messages.log: started when the application's CWWKZ0001I and the server's CWWKF0011I (ready) are there;
     * failed at the application's CWWKZ0002E or CWWKZ0004E.
     */
    @Override
    Startup startup(Duration took) throws IOException {
        String log = read(messagesLog(), 0);
        Matcher failed = FAILED.matcher(log);
        while (failed.find()) {
            if (failed.group().contains(" " + application() + " ") || failed.group().contains(" " + application() + ".")) {
                return new Startup(false, record(log, failed.start()), took);
            }
        }
        String started = "CWWKZ0001I: Application " + application() + " started";
        int at = log.indexOf(started);
        if (at >= 0 && log.contains("CWWKF0011I")) {
            return new Startup(true, record(log, at).lines().findFirst().orElse(""), took);
        }
        return null;
    }

    /** The settings of one Liberty server; {@link #start()} writes them and starts it. */
    public static final class Builder extends ServerHost.Builder<Builder, LibertyHost> {

        private Builder(Hosts hosts, int host) {
            super(hosts, host, DEFAULT_HTTP_PORT);
        }

        @Override
        public LibertyHost start() {
            LibertyHost server = new LibertyHost(this);
            server.start();
            return server;
        }
    }
}
