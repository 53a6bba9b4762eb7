package io.tollgate.testing;

import com.hazelcast.core.HazelcastInstance;
import io.tollgate.TollgateHazelcast;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

/** Hands Tollgate a member of a test cluster, the way an application would with its own instance. */
@ApplicationScoped
public class TestHazelcastProducer {

    static volatile HazelcastInstance instance;

    @Produces
    @TollgateHazelcast
    HazelcastInstance buckets() {
        return instance;
    }
}
