package io.tollgate.internal.config;

import java.util.List;
import java.util.Optional;

/** The {@code tollgate.hazelcast.*} properties: which instance to use and how to build one. */
public final class HazelcastSettings {

    /** How processors travel: by type id, by class name, or chosen by where the instance comes from. */
    public enum Serialization { AUTO, IDENTIFIED, DATA_SERIALIZABLE }

    private final String mapName;
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
    private final Serialization serialization;
    private final boolean coalescing;

    HazelcastSettings(String mapName, int maxEntriesPerMember, int backupCount, Optional<String> jndiName,
            List<String> clientAddresses, Optional<String> clientConfig, Optional<String> clusterName, Optional<String> memberConfig,
            String bindInterface, int port, List<String> members, Serialization serialization, boolean coalescing) {
        this.mapName = mapName;
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
        this.serialization = serialization;
        this.coalescing = coalescing;
    }

    public String mapName() {
        return mapName;
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

    public Serialization serialization() {
        return serialization;
    }

    /** @return whether concurrent requests on one key from this member share one round trip */
    public boolean coalescing() {
        return coalescing;
    }
}
