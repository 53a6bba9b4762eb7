package io.tollgate.internal.config;

/** Where buckets live. */
public enum StoreType {
    /** A Hazelcast IMap shared by every instance of the application (the default). */
    HAZELCAST,
    /** This JVM only: for development and single-instance deployments. */
    MEMORY
}
