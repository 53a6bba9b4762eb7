/**
 * The Hazelcast store: one IMap, one entry-processor call per decision. Internal: no API
 * guarantee, except the serialization factory id documented in the README.
 */
package io.tollgate.internal.hazelcast;
