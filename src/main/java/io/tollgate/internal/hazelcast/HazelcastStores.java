package io.tollgate.internal.hazelcast;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.client.config.ClientConnectionStrategyConfig;
import com.hazelcast.client.config.XmlClientConfigBuilder;
import com.hazelcast.client.config.YamlClientConfigBuilder;
import com.hazelcast.config.AdvancedNetworkConfig;
import com.hazelcast.config.Config;
import com.hazelcast.config.DiscoveryStrategyConfig;
import com.hazelcast.config.FileSystemXmlConfig;
import com.hazelcast.config.FileSystemYamlConfig;
import com.hazelcast.config.InterfacesConfig;
import com.hazelcast.config.InvalidConfigurationException;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.ListenerConfig;
import com.hazelcast.config.MapConfig;
import com.hazelcast.config.MergePolicyConfig;
import com.hazelcast.config.ServerSocketEndpointConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent;
import com.hazelcast.core.LifecycleListener;
import io.tollgate.TollgateHazelcast;
import io.tollgate.hazelcast.TollgateMergePolicy;
import io.tollgate.internal.config.HazelcastSettings;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.internal.runtime.SharedRules;
import io.tollgate.internal.store.Bans;
import io.tollgate.internal.store.BatchingBucketStore;
import io.tollgate.internal.store.BucketReading;
import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * Finds the Hazelcast instance for the buckets, in this order: an application bean qualified
 * {@link TollgateHazelcast}; the server's own instance (JNDI, {@code payara/Hazelcast} by default);
 * a client to an external cluster, when one is configured; else an embedded member that Tollgate
 * starts and stops with the application (127.0.0.1, the configured member list, no multicast,
 * a cluster name private to the OS user unless one is configured, no client protocol).
 */
public final class HazelcastStores {

    private static final Logger LOG = Logger.getLogger(HazelcastStores.class.getName());
    /** How long a deployment waits for a client to reach its cluster before going on without it. */
    static final long CLIENT_CONNECT_WAIT_SECONDS = 15;
    /** Longest pause between the default client's connection attempts while the cluster is gone. */
    static final int CLIENT_MAX_BACKOFF_MILLIS = 5_000;
    /** What a Hazelcast configuration file of Tollgate's may name as {@code ${tollgate.hazelcast.cluster-name}}. */
    static final String CLUSTER_NAME_VARIABLE = "tollgate.hazelcast.cluster-name";
    /** Hazelcast starts every log line with the address, the cluster name and the version unless this is false. */
    private static final String LOGGING_DETAILS = "hazelcast.logging.details.enabled";

    private HazelcastStores() {
    }

    /**
     * Opens the store; the caller closes it when the application stops.
     *
     * @param application the application's own instance, if it has one ({@code null} otherwise)
     */
    public static HazelcastBackend open(HazelcastSettings settings, Duration timeout,
            Supplier<HazelcastInstance> application) throws IOException {
        MapConfig mapConfig = BucketMapConfig.create(settings.mapName(), settings.maxEntriesPerMember(), settings.backupCount());
        HazelcastInstance produced = application.get();
        if (produced != null) {
            LOG.info("Tollgate keeps its buckets in the application's @TollgateHazelcast instance, map " + settings.mapName());
            return borrowed(produced, false, settings, mapConfig, timeout, "the application's instance",
                    () -> "the application's @TollgateHazelcast instance, as the application configured it");
        }
        HazelcastInstance server = settings.jndiName().map(HazelcastStores::lookup).orElse(null);
        if (server != null) {
            LOG.info("Tollgate keeps its buckets in the server's Hazelcast instance (" + settings.jndiName().get()
                    + "), map " + settings.mapName());
            return borrowed(server, true, settings, mapConfig, timeout, "the server's instance",
                    () -> "the server's Hazelcast instance (" + settings.jndiName().get() + "), as the server configured it");
        }
        settings.jndiName().ifPresent(name -> notFound(name, settings));
        if (settings.clientMode()) {
            ClientConfig clientConfig = clientConfig(settings);
            HazelcastInstance client = client(clientConfig, mapConfig);
            LOG.info("Tollgate keeps its buckets in an external Hazelcast cluster, as a client, map " + settings.mapName());
            boolean identified = settings.serialization() == HazelcastSettings.Serialization.IDENTIFIED;
            return new HazelcastBackend(client, settings.mapName(),
                    instance -> new HazelcastBucketStore(instance, settings.mapName(), identified, timeout),
                    () -> client(unchecked(() -> clientConfig(settings)), mapConfig), "Tollgate's Hazelcast client",
                    () -> clientDiscovery(settings, clientConfig), HazelcastInstance::shutdown);
        }
        Config config = memberConfig(settings, mapConfig);
        HazelcastInstance member = Hazelcast.newHazelcastInstance(config);
        LOG.info("Tollgate started an embedded Hazelcast member at " + member.getCluster().getLocalMember().getAddress()
                + " (" + member.getCluster().getMembers().size() + " member(s); cluster name " + nameSource(settings) + "), map "
                + settings.mapName());
        boolean identified = settings.serialization() != HazelcastSettings.Serialization.DATA_SERIALIZABLE;
        MemberDiscovery discovery = MemberDiscovery.of(config);
        return new HazelcastBackend(member, settings.mapName(),
                instance -> new HazelcastBucketStore(instance, settings.mapName(), identified, timeout),
                () -> Hazelcast.newHazelcastInstance(unchecked(() -> memberConfig(settings, mapConfig))),
                "Tollgate's embedded Hazelcast member",
                () -> memberDiscovery(settings, discovery), HazelcastInstance::shutdown);
    }

    /**
     * Starts a client, asynchronously: it waits up to {@value #CLIENT_CONNECT_WAIT_SECONDS} s for the cluster, then
     * goes on, reconnecting in the background; the map settings are added at each connection (a restarted cluster
     * forgot them).
     */
    private static HazelcastInstance client(ClientConfig clientConfig, MapConfig mapConfig) {
        // registered before the client starts, so the first connection cannot be missed
        CountDownLatch connected = new CountDownLatch(1);
        HazelcastInstance[] holder = new HazelcastInstance[1];
        clientConfig.addListenerConfig(new ListenerConfig((LifecycleListener) event -> {
            if (event.getState() == LifecycleEvent.LifecycleState.CLIENT_CONNECTED) {
                connected.countDown();
                if (holder[0] != null) {
                    addMapConfig(holder[0], mapConfig);
                }
            }
        }));
        HazelcastInstance client = HazelcastClient.newHazelcastClient(clientConfig);
        holder[0] = client;
        if (awaitUninterruptibly(connected, CLIENT_CONNECT_WAIT_SECONDS)) {
            addMapConfig(client, mapConfig);
        } else {
            LOG.warning("Tollgate's Hazelcast client has not reached the cluster within " + CLIENT_CONNECT_WAIT_SECONDS
                    + " s; it keeps trying, and until then each rule answers by its on-store-failure policy");
        }
        return client;
    }

    /** A configuration read again for a new instance: the files it names may have changed meanwhile. */
    private static <T> T unchecked(ConfigRead<T> read) {
        try {
            return read.get();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private interface ConfigRead<T> {
        T get() throws IOException;
    }

    private static String clientDiscovery(HazelcastSettings settings, ClientConfig config) {
        return settings.clientConfig().map(file -> "the cluster of tollgate.hazelcast.client.config = " + file + " ("
                + String.join(", ", config.getNetworkConfig().getAddresses()) + ")")
                .orElse("tollgate.hazelcast.client.addresses = " + String.join(", ", settings.clientAddresses()));
    }

    private static String memberDiscovery(HazelcastSettings settings, MemberDiscovery discovery) {
        if (settings.memberConfig().isPresent()) {
            return "the join settings of tollgate.hazelcast.config = " + settings.memberConfig().get();
        }
        if (settings.kubernetesServiceDns().isPresent()) {
            return "the addresses of tollgate.hazelcast.kubernetes.service-dns = " + settings.kubernetesServiceDns().get()
                    + ", port " + settings.port() + " (" + KubernetesDiscovery.describe(settings.kubernetesServiceDns().get()) + ")";
        }
        return "tollgate.hazelcast.members = " + String.join(",", settings.members())
                + (discovery == null ? "" : " (" + discovery.describeLastRound() + ")");
    }

    /**
     * @param instance the instance that keeps the rule changes
     * @param mapName  the map of the rule changes (the buckets' map's name and {@code -rules})
     * @return the rule changes made through the operator API, kept in {@code instance}'s cluster
     */
    public static SharedRules sharedRules(HazelcastInstance instance, String mapName) {
        return new HazelcastSharedRules(InstanceSource.of(instance), mapName);
    }

    /** @param server whether the instance is the server's own (Payara's Data Grid), rather than the application's */
    private static HazelcastBackend borrowed(HazelcastInstance instance, boolean server, HazelcastSettings settings,
            MapConfig mapConfig, Duration timeout, String what, Supplier<String> discovery) {
        if (!mergePolicyLoads(instance)) {
            LOG.info("Tollgate's merge policy is not visible to " + what + "'s class loader (a server's instance loads no "
                    + "application class by name): after a split, map " + settings.mapName() + " merges by Hazelcast's default "
                    + "policy, the larger side's bucket winning where both sides kept one");
            mapConfig.setMergePolicyConfig(new MergePolicyConfig());
        }
        addMapConfig(instance, mapConfig);
        // the member advertises the newest wire version only where it surely reads it: with this very factory
        boolean ours = factoryOfThisTollgate(instance);
        boolean identified;
        Consumer<HazelcastInstance> onClose = any -> { };
        switch (settings.serialization()) {
            case IDENTIFIED:
                identified = true;
                break;
            case DATA_SERIALIZABLE:
                identified = false;
                break;
            default:
                if (factoryRegistered(instance)) {
                    identified = true;
                    break;
                }
                LateFactoryRegistration registration = LateFactoryRegistration.register(instance);
                identified = registration != null;
                ours = registration != null;
                if (registration != null) {
                    LOG.fine(() -> "Registered Tollgate's serialization factory with " + what);
                    onClose = any -> registration.undo();
                }
        }
        if (identified && server) {
            promoteIfLite(instance);
        }
        boolean advertise = ours;
        boolean byTypeId = identified;
        return new HazelcastBackend(instance, settings.mapName(),
                current -> new HazelcastBucketStore(current, settings.mapName(), byTypeId, timeout, advertise), null, what,
                discovery, onClose);
    }

    /**
     * Makes the server's member a data member if it was started as a lite one (Payara Micro's {@code --lite}): a member
     * that joins a running grid as a lite member owns no partition, and so is sent no bucket and no backup, until the
     * application that reads Tollgate's processors is deployed there; then it holds its share. Without it, a member
     * joining as a data member is sent decisions and backups before it can read them, which its owner then answers
     * with an error (see "Payara" in the README).
     */
    private static void promoteIfLite(HazelcastInstance instance) {
        try {
            if (instance.getCluster().getLocalMember().isLiteMember()) {
                instance.getCluster().promoteLocalLiteMember();
                LOG.info("Tollgate made the server's lite Hazelcast member a data member, now that it reads Tollgate's processors");
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Tollgate could not make the server's lite Hazelcast member a data member; it stays lite", e);
        }
    }

    /**
     * @return whether the members of {@code instance} find {@link TollgateMergePolicy} by name, as Hazelcast loads it: with
     *         the configuration's class loader, else with its own classes' (an instance the server started sees none of the
     *         application's classes)
     */
    private static boolean mergePolicyLoads(HazelcastInstance instance) {
        try {
            ClassLoader loader = instance.getConfig().getClassLoader();
            Class<?> found = Class.forName(TollgateMergePolicy.class.getName(), false,
                    loader != null ? loader : HazelcastInstance.class.getClassLoader());
            return found == TollgateMergePolicy.class;
        } catch (ClassNotFoundException | RuntimeException | LinkageError e) {
            return false;
        }
    }

    private static boolean factoryOfThisTollgate(HazelcastInstance instance) {
        try {
            return Serialization.registersThisCode(instance.getConfig().getSerializationConfig());
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static boolean factoryRegistered(HazelcastInstance instance) {
        try {
            return Serialization.isRegistered(instance.getConfig().getSerializationConfig());
        } catch (RuntimeException e) {
            return false; // a client cannot see its members' configuration
        }
    }

    /**
     * What Tollgate does when no instance is found at the JNDI name: with a client configured, it goes on to the client;
     * with a name the user configured, it fails the deployment, naming it; on Payara with the default name, it says at
     * WARNING that it starts an embedded member of its own instead of using the Data Grid; elsewhere (no Data Grid is
     * expected) it goes on quietly.
     *
     * @throws IllegalArgumentException for a configured name that names no running instance, and no client
     */
    private static void notFound(String jndiName, HazelcastSettings settings) {
        if (settings.clientMode()) {
            LOG.info("No running Hazelcast instance at JNDI name " + jndiName + "; Tollgate connects as a client, as configured");
        } else if (!HazelcastSettings.DEFAULT_JNDI_NAME.equals(jndiName)) {
            throw new IllegalArgumentException("tollgate.hazelcast.jndi-name = '" + jndiName + "': no running Hazelcast instance "
                    + "there. Name the server's instance, or set tollgate.hazelcast.jndi-name empty to have Tollgate start an "
                    + "embedded member of its own (or configure a client)");
        } else if (System.getProperty("glassfish.version", "").contains("Payara")) {
            LOG.warning("No running Hazelcast instance at JNDI name " + jndiName + ", Payara's Data Grid (is it turned off?): "
                    + "Tollgate starts an embedded member of its own instead, which shares buckets only with the members it finds "
                    + "at tollgate.hazelcast.members. Turn the Data Grid on, or set tollgate.hazelcast.jndi-name empty to say "
                    + "that the embedded member is meant");
        }
    }

    private static HazelcastInstance lookup(String jndiName) {
        try {
            Object found = new InitialContext().lookup(jndiName);
            return found instanceof HazelcastInstance && ((HazelcastInstance) found).getLifecycleService().isRunning()
                    ? (HazelcastInstance) found : null;
        } catch (NamingException | RuntimeException | LinkageError e) {
            LOG.log(Level.FINE, "No Hazelcast instance at JNDI name " + jndiName, e);
            return null;
        }
    }

    private static boolean awaitUninterruptibly(CountDownLatch latch, long seconds) {
        try {
            return latch.await(seconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Adds Tollgate's map settings to a running instance, unless it already has its own for the map. */
    static void addMapConfig(HazelcastInstance instance, MapConfig mapConfig) {
        try {
            instance.getConfig().addMapConfig(mapConfig);
        } catch (com.hazelcast.client.HazelcastClientOfflineException e) {
            LOG.fine("Not connected yet; the map settings are added once the client connects");
        } catch (RuntimeException e) {
            LOG.info("Map " + mapConfig.getName() + " already has its own configuration on this cluster; Tollgate uses it "
                    + "(make sure it has at least one backup and a size bound)");
            LOG.log(Level.FINE, "Tollgate's map configuration was not added", e);
        }
    }

    static ClientConfig clientConfig(HazelcastSettings settings) throws IOException {
        ClientConfig config;
        if (settings.clientConfig().isPresent()) {
            String path = existing("tollgate.hazelcast.client.config", settings.clientConfig().get());
            try {
                config = path.toLowerCase(Locale.ROOT).endsWith(".xml")
                        ? new XmlClientConfigBuilder(path).setProperties(variables(settings)).build()
                        : new YamlClientConfigBuilder(path).setProperties(variables(settings)).build();
            } catch (InvalidConfigurationException e) {
                throw invalidFile("tollgate.hazelcast.client.config", path, e);
            }
            warnOfTheDefaultName("tollgate.hazelcast.client.config", config.getClusterName());
        } else {
            config = new ClientConfig().setClusterName(settings.clusterName()
                    .orElseThrow(() -> new IllegalArgumentException(CLUSTER_NAME_VARIABLE + " is not set")));
            config.setProperty(LOGGING_DETAILS, "false");
            config.getNetworkConfig().setAddresses(settings.clientAddresses());
            // back within seconds of the cluster's return, however long it was gone
            config.getConnectionStrategyConfig().getConnectionRetryConfig().setMaxBackoffMillis(CLIENT_MAX_BACKOFF_MILLIS);
        }
        // Never hold the deployment or a request waiting for the cluster: until it answers, each rule's
        // on-store-failure policy decides; the client keeps reconnecting in the background.
        config.getConnectionStrategyConfig().setAsyncStart(true)
                .setReconnectMode(ClientConnectionStrategyConfig.ReconnectMode.ASYNC);
        if (config.getProperty("hazelcast.phone.home.enabled") == null) {
            config.setProperty("hazelcast.phone.home.enabled", "false");
        }
        JavaSerializationFilter.applyTo(config.getSerializationConfig());
        config.setClassLoader(HazelcastStores.class.getClassLoader());
        return config;
    }

    /**
     * The embedded member's configuration: from {@code tollgate.hazelcast.config} as it is, or
     * Tollgate's own. Tollgate's has a member endpoint only (Hazelcast clients, REST and memcache
     * are not accepted), bound to {@code tollgate.hazelcast.interface}, joins as
     * {@link MemberDiscovery} does, and without a configured name uses the OS user's private one.
     */
    static Config memberConfig(HazelcastSettings settings, MapConfig mapConfig) throws FileNotFoundException {
        Config config;
        if (settings.memberConfig().isPresent()) {
            File file = new File(existing("tollgate.hazelcast.config", settings.memberConfig().get()));
            try {
                config = file.getName().toLowerCase(Locale.ROOT).endsWith(".xml") ? new FileSystemXmlConfig(file, variables(settings))
                        : new FileSystemYamlConfig(file, variables(settings));
            } catch (InvalidConfigurationException e) {
                throw invalidFile("tollgate.hazelcast.config", file.getPath(), e);
            }
            warnOfTheDefaultName("tollgate.hazelcast.config", config.getClusterName());
        } else {
            config = new Config().setClusterName(settings.clusterName().orElseGet(() -> privateName(PrivateClusterName.userDirectory())));
            config.setProperty("hazelcast.socket.bind.any", "false");
            config.setProperty("hazelcast.phone.home.enabled", "false");
            config.setProperty(LOGGING_DETAILS, "false");
            config.setProperty("hazelcast.discovery.enabled", "true");
            // a member that finds no other waits this long before it starts a cluster of its own (5 s by default)
            config.setProperty("hazelcast.wait.seconds.before.join", "1");
            AdvancedNetworkConfig network = config.getAdvancedNetworkConfig().setEnabled(true);
            ServerSocketEndpointConfig endpoint = new ServerSocketEndpointConfig()
                    .setPort(settings.port()).setPortAutoIncrement(true).setPortCount(Math.max(3, settings.members().size()))
                    .setInterfaces(new InterfacesConfig().setEnabled(true).addInterface(settings.bindInterface()));
            network.setMemberEndpointConfig(FailureTimings.applyTo(endpoint));
            JoinConfig join = network.getJoin();
            join.getMulticastConfig().setEnabled(false);
            join.getAutoDetectionConfig().setEnabled(false);
            join.getTcpIpConfig().setEnabled(false);
            if (settings.kubernetesServiceDns().isPresent()) {
                KubernetesDiscovery.configure(join, settings.kubernetesServiceDns().get(), settings.port());
            } else {
                join.getDiscoveryConfig().addDiscoveryStrategyConfig(new DiscoveryStrategyConfig(
                        new MemberDiscovery(settings.members(), settings.port(), ListeningSockets.system())));
            }
            FailureTimings.applyTo(config);
            // the plain network settings are not used with the advanced ones; off all the same
            config.getNetworkConfig().getJoin().getMulticastConfig().setEnabled(false);
            config.getNetworkConfig().getJoin().getAutoDetectionConfig().setEnabled(false);
        }
        JavaSerializationFilter.applyTo(config.getSerializationConfig());
        if (config.getInstanceName() == null) {
            config.setInstanceName("tollgate-" + UUID.randomUUID().toString().substring(0, 8));
        }
        config.setProperty("hazelcast.shutdownhook.enabled", "false"); // stopped with the application
        if (config.getMapConfigOrNull(mapConfig.getName()) == null) {
            config.addMapConfig(mapConfig);
        }
        if (!Serialization.isRegistered(config.getSerializationConfig())) {
            Serialization.register(config.getSerializationConfig());
        }
        config.setClassLoader(HazelcastStores.class.getClassLoader());
        return config;
    }

    /** The name from the OS user's private file; if that cannot be used, this JVM's own, and a warning that says so. */
    private static String privateName(Path directory) {
        PrivateClusterName name = PrivateClusterName.in(directory);
        if (name.problem() != null) {
            LOG.warning("Tollgate cannot use the cluster name file " + name.problem() + ". This JVM's Hazelcast member uses a "
                    + "random cluster name of its own, so other instances will not find it until tollgate.hazelcast.cluster-name "
                    + "is configured");
        }
        return name.name();
    }

    private static IllegalArgumentException invalidFile(String property, String path, InvalidConfigurationException e) {
        String hint = String.valueOf(e.getMessage()).contains("${" + CLUSTER_NAME_VARIABLE + "}")
                ? "; set " + CLUSTER_NAME_VARIABLE + " to the cluster's name" : "";
        return new IllegalArgumentException(property + " = '" + path + "': " + e.getMessage() + hint, e);
    }

    private static void warnOfTheDefaultName(String property, String clusterName) {
        if (Config.DEFAULT_CLUSTER_NAME.equals(clusterName)) {
            LOG.warning("The Hazelcast configuration file of " + property + " names no cluster, so Hazelcast's default '"
                    + Config.DEFAULT_CLUSTER_NAME + "' is used, a name anyone can guess: give the cluster a name of its own (see "
                    + "\"Security\" in Tollgate's README)");
        }
    }

    private static String nameSource(HazelcastSettings settings) {
        if (settings.memberConfig().isPresent()) {
            return "from tollgate.hazelcast.config";
        }
        return settings.clusterName().isPresent() ? "configured" : "private to this OS user";
    }

    /**
     * @return what {@code ${...}} in Tollgate's Hazelcast configuration files may name: the system
     *         properties, and {@value #CLUSTER_NAME_VARIABLE} from MicroProfile Config
     */
    private static Properties variables(HazelcastSettings settings) {
        Properties variables = new Properties();
        variables.putAll(System.getProperties());
        settings.clusterName().ifPresent(name -> variables.setProperty(CLUSTER_NAME_VARIABLE, name));
        return variables;
    }

    private static String existing(String property, String path) {
        if (!java.nio.file.Files.isReadable(java.nio.file.Path.of(path))) {
            throw new IllegalArgumentException(property + " = '" + path + "': no such readable file");
        }
        return path;
    }
}
