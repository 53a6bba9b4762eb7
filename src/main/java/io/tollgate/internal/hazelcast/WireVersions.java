package io.tollgate.internal.hazelcast;

import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.EntryAdapter;
import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent;
import com.hazelcast.map.MapEvent;
import com.hazelcast.replicatedmap.ReplicatedMap;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The wire version a member sends ({@link Serialization}): the highest one that every data
 * member of the cluster reads, so that no member is ever sent a form it cannot read.
 *
 * <p>Each Tollgate instance on a member whose serialization it knows advertises the highest version
 * it reads, in a small replicated map ({@value #MAP_NAME}: member UUID and instance id → version),
 * with a time-to-live of three refreshes, refreshed every {@value #REFRESH_SECONDS} s, and removed
 * when it closes. The
 * version in use is the minimum, over the current data members (lite members hold no data and read
 * no processor), of the highest version advertised on each; a member that advertises nothing, such
 * as an older Tollgate or a member without Tollgate, counts as version 0. It is recomputed when
 * members join or leave (a member that joins counts as version 0 from the moment this member hears
 * of it until its advertisement arrives), when an advertisement changes, and at every refresh; a
 * decision only reads it (one volatile read). A lite member promoted to a data member is noticed at
 * the next refresh.
 *
 * <p>One negotiation per member and class loader, that is per Tollgate instance, shared by its
 * stores and ended when the last of them closes or the member shuts down.
 */
final class WireVersions implements AutoCloseable {

    /** The replicated map of advertisements. */
    static final String MAP_NAME = "tollgate-wire-versions";
    static final long REFRESH_SECONDS = 10;
    /** How often advertisements are refreshed and the version recomputed; tests lengthen it to see the other triggers alone. */
    static volatile long refreshSeconds = REFRESH_SECONDS;

    private static final Logger LOG = Logger.getLogger(WireVersions.class.getName());
    /** The running negotiations, by member name; guards their counts and {@link #timer}. */
    private static final Map<String, Negotiation> BY_MEMBER = new HashMap<>();
    /** Refreshes the advertisements; runs while any negotiation does. */
    private static ScheduledExecutorService timer;

    private final Negotiation negotiation;
    private final int fixed;
    private final boolean advertises;
    private final AtomicBoolean closed = new AtomicBoolean();

    private WireVersions(Negotiation negotiation, int fixed, boolean advertises) {
        this.negotiation = negotiation;
        this.fixed = fixed;
        this.advertises = advertises;
    }

    /** @return always {@code version}: for a client, whose cluster's members run no Tollgate that could advertise */
    static WireVersions fixed(int version) {
        return new WireVersions(null, version, false);
    }

    /**
     * @param advertise whether {@code member} reads what this code writes (Tollgate configured its
     *                  serialization or registered its factory there), so that it advertises
     *                  {@link Serialization#WIRE_VERSION}
     * @return this member's share of the negotiation; close it when its store closes
     */
    static WireVersions negotiated(HazelcastInstance member, boolean advertise) {
        synchronized (BY_MEMBER) {
            Negotiation negotiation = BY_MEMBER.get(member.getName());
            if (negotiation == null || !negotiation.member.getLifecycleService().isRunning()) {
                if (negotiation != null) {
                    negotiation.stop(); // of a member by that name that has since shut down
                }
                negotiation = new Negotiation(member);
                BY_MEMBER.put(member.getName(), negotiation);
                if (timer == null) {
                    timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
                        Thread thread = new Thread(runnable, "tollgate-wire-versions");
                        thread.setDaemon(true);
                        return thread;
                    });
                }
                try {
                    negotiation.start(timer);
                } catch (RuntimeException e) {
                    negotiation.stop();
                    throw e;
                }
            }
            negotiation.holders++;
            if (advertise && negotiation.advertisers++ == 0) {
                // on the timer: a deployment must not wait for a member that is slow to take the write
                timer.execute(negotiation::refresh);
            }
            negotiation.recompute();
            return new WireVersions(negotiation, 0, advertise);
        }
    }

    /** @return the wire version to send now */
    int inUse() {
        return negotiation == null ? fixed : negotiation.inUse;
    }

    @Override
    public void close() {
        if (negotiation == null || !closed.compareAndSet(false, true)) {
            return;
        }
        synchronized (BY_MEMBER) {
            if (negotiation.stopped) {
                return;
            }
            if (advertises && --negotiation.advertisers == 0) {
                negotiation.withdraw();
            }
            if (--negotiation.holders == 0) {
                negotiation.stop();
            }
        }
    }

    /** One Tollgate instance's negotiation on one member. */
    private static final class Negotiation {
        final HazelcastInstance member;
        final String id = UUID.randomUUID().toString();
        final ReplicatedMap<String, Integer> advertisements;
        volatile int inUse = Serialization.WIRE_V0;
        int holders;
        int advertisers;
        boolean stopped;
        private UUID membershipListener;
        private UUID entryListener;
        private UUID lifecycleListener;
        private ScheduledFuture<?> refresh;

        Negotiation(HazelcastInstance member) {
            this.member = member;
            this.advertisements = member.getReplicatedMap(MAP_NAME);
        }

        void start(ScheduledExecutorService timer) {
            membershipListener = member.getCluster().addMembershipListener(new MembershipListener() {
                @Override
                public void memberAdded(MembershipEvent event) {
                    recompute();
                }

                @Override
                public void memberRemoved(MembershipEvent event) {
                    recompute();
                }
            });
            entryListener = advertisements.addEntryListener(new EntryAdapter<String, Integer>() {
                @Override
                public void onEntryEvent(EntryEvent<String, Integer> event) {
                    recompute();
                }

                @Override
                public void onMapEvent(MapEvent event) {
                    recompute();
                }
            });
            lifecycleListener = member.getLifecycleService().addLifecycleListener(event -> {
                if (event.getState() == LifecycleEvent.LifecycleState.SHUTTING_DOWN) {
                    synchronized (BY_MEMBER) {
                        if (!stopped) {
                            stopped = true; // the member goes, and its listeners with it
                            end();
                        }
                    }
                }
            });
            long period = refreshSeconds;
            refresh = timer.scheduleWithFixedDelay(this::refresh, period, period, TimeUnit.SECONDS);
        }

        private String key() {
            return member.getCluster().getLocalMember().getUuid() + "/" + id;
        }

        void advertise() {
            advertisements.put(key(), Serialization.WIRE_VERSION, 3 * refreshSeconds, TimeUnit.SECONDS);
        }

        void withdraw() {
            try {
                advertisements.remove(key());
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "Could not withdraw Tollgate's wire version; it expires within " + 3 * refreshSeconds + " s", e);
            }
        }

        private void refresh() {
            try {
                synchronized (BY_MEMBER) {
                    if (stopped) {
                        return;
                    }
                    if (advertisers > 0) {
                        advertise();
                    }
                }
                recompute();
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "Could not refresh Tollgate's wire version", e);
            }
        }

        /** Sets {@link #inUse} to the highest version every current data member reads. */
        synchronized void recompute() {
            try {
                Map<UUID, Integer> reads = new HashMap<>();
                for (Map.Entry<String, Integer> advertisement : advertisements.entrySet()) {
                    UUID uuid = memberOf(advertisement.getKey());
                    if (uuid != null && advertisement.getValue() != null) {
                        reads.merge(uuid, advertisement.getValue(), Math::max);
                    }
                }
                int version = Serialization.WIRE_VERSION;
                Member without = null;
                for (Member data : member.getCluster().getMembers()) {
                    int read = reads.getOrDefault(data.getUuid(), Serialization.WIRE_V0);
                    if (!data.isLiteMember() && read < version) {
                        version = read;
                        without = data;
                    }
                }
                if (version != inUse) {
                    LOG.info("Tollgate sends wire version " + version + " from now on: " + (without == null
                            ? "every data member reads it" : "member " + without.getAddress() + " reads no newer version"));
                }
                inUse = version;
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "Could not recompute Tollgate's wire version; it stays at " + inUse, e);
            }
        }

        private static UUID memberOf(String key) {
            int slash = key.indexOf('/');
            try {
                return slash < 0 ? null : UUID.fromString(key.substring(0, slash));
            } catch (IllegalArgumentException e) {
                return null;
            }
        }

        /** Ends this negotiation: its listeners, its refresh, and the timer if it was the last. Under {@link #BY_MEMBER}. */
        void stop() {
            stopped = true;
            try {
                if (membershipListener != null) {
                    member.getCluster().removeMembershipListener(membershipListener);
                }
                if (entryListener != null) {
                    advertisements.removeEntryListener(entryListener);
                }
                if (lifecycleListener != null) {
                    member.getLifecycleService().removeLifecycleListener(lifecycleListener);
                }
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "Could not remove Tollgate's wire version listeners (the member is going)", e);
            }
            end();
        }

        private void end() {
            if (refresh != null) {
                refresh.cancel(false);
            }
            BY_MEMBER.remove(member.getName(), this);
            if (BY_MEMBER.isEmpty() && timer != null) {
                timer.shutdownNow();
                timer = null;
            }
        }
    }
}
