package io.tollgate.testing;

import io.tollgate.internal.store.StoreCluster;

/** A store's cluster of a size the test sets: its members (changeable) and the instances a local share divides by. */
public final class TestCluster implements StoreCluster {

    private volatile int members;
    private final int instances;

    public TestCluster(int members, int instances) {
        this.members = members;
        this.instances = instances;
    }

    /** Sets the members from now on. */
    public void members(int members) {
        this.members = members;
    }

    @Override
    public int members() {
        return members;
    }

    @Override
    public int instances() {
        return instances;
    }

    @Override
    public String discovery() {
        return "a test";
    }
}
