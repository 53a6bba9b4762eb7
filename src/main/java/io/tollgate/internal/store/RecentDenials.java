package io.tollgate.internal.store;

/** What a store in front of the owner remembers of the denials it passed on: the {@link DenialCache}. */
public interface RecentDenials {

    /** Remembers nothing. */
    RecentDenials NONE = (key, cost) -> false;

    /**
     * @return whether this member saw the store deny {@code key} a request of at most {@code cost} moments ago
     */
    boolean recentlyDenied(String key, long cost);

    /** @return what {@code store} remembers of recent denials, if it is a store that does */
    static RecentDenials of(BucketStore store) {
        return store instanceof RecentDenials recent ? recent : NONE;
    }
}
