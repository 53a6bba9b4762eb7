package io.tollgate.internal.config;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/** The {@code tollgate.hazelcast.*} properties: which instance to use and how to build one. */
public final class HazelcastSettings {

    /** How processors travel: by type id, by class name, or chosen by where the instance comes from. */
    public enum Serialization { AUTO, IDENTIFIED, DATA_SERIALIZABLE }

    /** Where Payara keeps its Data Grid's instance, the JNDI name tried by default. */
    public static final String DEFAULT_JNDI_NAME = "payara/Hazelcast";
    /** The map when none is configured and the application's name is not known. */
    public static final String DEFAULT_MAP = "tollgate-buckets";
    /** A trailing version of an application's name: {@code -1.4.2}, {@code -2.0-SNAPSHOT}, {@code :1.0}. */
    private static final Pattern VERSION = Pattern.compile("(?:-\\d[\\w.+-]*|:.*)$");
    private static final Pattern NOT_IN_NAME = Pattern.compile("[^a-z0-9_.-]+");

    private final String mapName;
    private final boolean mapConfigured;
    private final int maxEntriesPerMember;
    private final int backupCount;
    private final Optional<String> jndiName;
    private final List<String> clientAddresses;
    private final Optional<String> clientConfig;
    private final Optional<String> clusterName;
    private final Optional<String> memberConfig;
    private final String bindInterface;
    private final int port;
    private final List<String> members;
    private final Optional<String> kubernetesServiceDns;
    private final Serialization serialization;
    private final boolean coalescing;

    HazelcastSettings(Optional<String> mapName, int maxEntriesPerMember, int backupCount, Optional<String> jndiName,
            List<String> clientAddresses, Optional<String> clientConfig, Optional<String> clusterName, Optional<String> memberConfig,
            String bindInterface, int port, List<String> members, Optional<String> kubernetesServiceDns, Serialization serialization,
            boolean coalescing) {
        this(mapName.orElse(DEFAULT_MAP), mapName.isPresent(), maxEntriesPerMember, backupCount, jndiName, clientAddresses,
                clientConfig, clusterName, memberConfig, bindInterface, port, members, kubernetesServiceDns, serialization, coalescing);
    }

    private HazelcastSettings(String mapName, boolean mapConfigured, int maxEntriesPerMember, int backupCount,
            Optional<String> jndiName, List<String> clientAddresses, Optional<String> clientConfig, Optional<String> clusterName,
            Optional<String> memberConfig, String bindInterface, int port, List<String> members,
            Optional<String> kubernetesServiceDns, Serialization serialization, boolean coalescing) {
        this.mapName = mapName;
        this.mapConfigured = mapConfigured;
        this.maxEntriesPerMember = maxEntriesPerMember;
        this.backupCount = backupCount;
        this.jndiName = jndiName;
        this.clientAddresses = List.copyOf(clientAddresses);
        this.clientConfig = clientConfig;
        this.clusterName = clusterName;
        this.memberConfig = memberConfig;
        this.bindInterface = bindInterface;
        this.port = port;
        this.members = List.copyOf(members);
        this.kubernetesServiceDns = kubernetesServiceDns;
        this.serialization = serialization;
        this.coalescing = coalescing;
    }

    /** @return the IMap of the buckets; its rule changes, bans and resets are kept next to it, named after it */
    public String mapName() {
        return mapName;
    }

    /**
     * @param application the application's name as its server deployed it, if known
     * @return these settings with the map of that application: {@code tollgate-buckets-} and the name, lower case,
     *         without a trailing version ({@code Shop-1.4.2} → {@code tollgate-buckets-shop}), unless a map is configured
     */
    public HazelcastSettings forApplication(Optional<String> application) {
        if (mapConfigured || application.isEmpty()) {
            return this;
        }
        String name = NOT_IN_NAME.matcher(VERSION.matcher(application.get().trim()).replaceFirst("").toLowerCase(Locale.ROOT))
                .replaceAll("-").replaceAll("^-+|-+$", "");
        if (name.isEmpty()) {
            return this;
        }
        return new HazelcastSettings(DEFAULT_MAP + "-" + name, false, maxEntriesPerMember, backupCount, jndiName, clientAddresses,
                clientConfig, clusterName, memberConfig, bindInterface, port, members, kubernetesServiceDns, serialization,
                coalescing);
    }

    public int maxEntriesPerMember() {
        return maxEntriesPerMember;
    }

    public int backupCount() {
        return backupCount;
    }

    /** @return the JNDI name of the server's own instance to try, if any */
    public Optional<String> jndiName() {
        return jndiName;
    }

    /** @return the cluster members a client connects to; empty unless client mode is configured */
    public List<String> clientAddresses() {
        return clientAddresses;
    }

    /** @return a client configuration file; present only in client mode */
    public Optional<String> clientConfig() {
        return clientConfig;
    }

    /** @return whether Tollgate should connect as a client to an external cluster */
    public boolean clientMode() {
        return !clientAddresses.isEmpty() || clientConfig.isPresent();
    }

    /**
     * @return the configured cluster name; empty when none is, and then the embedded member uses
     *         a name private to the OS user (a client always has one, or a configuration file)
     */
    public Optional<String> clusterName() {
        return clusterName;
    }

    /** @return a member configuration file for the embedded member, replacing the defaults below */
    public Optional<String> memberConfig() {
        return memberConfig;
    }

    public String bindInterface() {
        return bindInterface;
    }

    public int port() {
        return port;
    }

    public List<String> members() {
        return members;
    }

    /** @return the DNS name of a Kubernetes headless Service whose addresses are the embedded members, if configured */
    public Optional<String> kubernetesServiceDns() {
        return kubernetesServiceDns;
    }

    public Serialization serialization() {
        return serialization;
    }

    /** @return whether concurrent requests on one key from this member share one round trip */
    public boolean coalescing() {
        return coalescing;
    }
}
