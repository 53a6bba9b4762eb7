package io.tollgate;

import jakarta.inject.Qualifier;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Qualifies the {@code com.hazelcast.core.HazelcastInstance} an application produces for
 * Tollgate's buckets:
 *
 * <pre>{@code
 * @Produces @TollgateHazelcast
 * HazelcastInstance buckets() { return myInstance; }
 * }</pre>
 *
 * Such an instance wins over every other source; Tollgate never shuts it down. Its members must
 * have Tollgate's classes, and should register {@code io.tollgate.hazelcast.TollgateSerialization}
 * (factory id {@code 0x746F6C6C}) for the compact wire form.
 */
@Qualifier
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.FIELD, ElementType.PARAMETER, ElementType.TYPE})
public @interface TollgateHazelcast {
}
