package io.tollgate.internal.store;

/**
 * What a store knows of the cluster that shares it: how many members it has now, and how many instances of the
 * application shared it lately. Read on the decision path: each answer is a field read, kept up to date elsewhere.
 */
public interface StoreCluster {

    /** This JVM alone: one member, one instance, nothing to discover. */
    StoreCluster ALONE = new StoreCluster() {
        @Override
        public int members() {
            return 1;
        }

        @Override
        public int instances() {
            return 1;
        }

        @Override
        public String discovery() {
            return "none (this JVM alone)";
        }
    };

    /** @return the members of the store's cluster as this instance sees it now (a client: its cluster's members) */
    int members();

    /**
     * @return the most instances of the application seen sharing the store lately, at least 1: what a rule's local
     *         share ({@code on-store-failure=local}) divides its limits by
     */
    int instances();

    /** @return how members are looked for, and what was found: for the readiness check and the warnings */
    String discovery();

    /**
     * @return why the store cannot answer for a while whatever is asked (its instance died and is being replaced), or
     *         {@code null}; the default knows of no such thing
     */
    default String problem() {
        return null;
    }
}
