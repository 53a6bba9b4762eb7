package io.tollgate.internal.hazelcast;

import com.hazelcast.core.HazelcastInstance;
import java.util.function.Consumer;

/** The Hazelcast instance Tollgate works with now, and how its parts learn of a new one that replaced it. */
interface InstanceSource {

    /** @return the instance to work with now */
    HazelcastInstance instance();

    /** @param attach told of each instance that replaces the current one, once it is in use */
    void onReplaced(Consumer<HazelcastInstance> attach);

    /**
     * @param catchUp run when this instance may have missed what the others told the cluster ({@code true}: after a
     *                merge, a join, a reconnection, a new instance), and periodically ({@code false})
     */
    void onCatchUp(CatchUp catchUp);

    /** @return {@code instance}, for good, without catching up: for tests of the parts alone */
    static InstanceSource of(HazelcastInstance instance) {
        return new InstanceSource() {
            @Override
            public HazelcastInstance instance() {
                return instance;
            }

            @Override
            public void onReplaced(Consumer<HazelcastInstance> attach) {
            }

            @Override
            public void onCatchUp(CatchUp catchUp) {
            }
        };
    }
}
