package io.tollgate.internal.hazelcast;

import com.hazelcast.config.EvictionConfig;
import com.hazelcast.config.EvictionPolicy;
import com.hazelcast.config.InMemoryFormat;
import com.hazelcast.config.MapConfig;
import com.hazelcast.config.MaxSizePolicy;
import com.hazelcast.config.MergePolicyConfig;
import io.tollgate.hazelcast.TollgateMergePolicy;
import io.tollgate.internal.config.GlobalProperties;
import io.tollgate.internal.config.HazelcastSettings;

/**
 * The IMap settings Tollgate wants: one synchronous backup, values kept as objects (the entry
 * processor then reads and writes them without deserializing), a bound on the number of
 * buckets per member, past which the least recently used buckets are evicted, and
 * {@link TollgateMergePolicy} for the merge after a split. Per-entry time-to-live is set by the
 * processor itself.
 */
public final class BucketMapConfig {

    /** The map name where neither {@code tollgate.hazelcast.map} nor the application's name gives one. */
    public static final String DEFAULT_MAP_NAME = HazelcastSettings.DEFAULT_MAP;
    /** The default bound on buckets per member, that of {@code tollgate.hazelcast.max-entries-per-member}. */
    public static final int DEFAULT_MAX_ENTRIES_PER_MEMBER = GlobalProperties.HAZELCAST_MAX_ENTRIES.defaultValue();

    private BucketMapConfig() {
    }

    /**
     * @param mapName             the IMap's name
     * @param maxEntriesPerMember the most buckets one member holds before evicting
     * @param backupCount         synchronous backups, at least 1
     * @return the map configuration
     */
    public static MapConfig create(String mapName, int maxEntriesPerMember, int backupCount) {
        if (maxEntriesPerMember < 1) {
            throw new IllegalArgumentException("maxEntriesPerMember = " + maxEntriesPerMember + ": must be at least 1");
        }
        if (backupCount < 1 || backupCount > MapConfig.MAX_BACKUP_COUNT) {
            throw new IllegalArgumentException("backupCount = " + backupCount + ": must be between 1 and " + MapConfig.MAX_BACKUP_COUNT);
        }
        return new MapConfig(mapName)
                .setMergePolicyConfig(new MergePolicyConfig(TollgateMergePolicy.class.getName(), MergePolicyConfig.DEFAULT_BATCH_SIZE))
                .setBackupCount(backupCount)
                .setAsyncBackupCount(0)
                .setReadBackupData(false)
                .setInMemoryFormat(InMemoryFormat.OBJECT)
                .setStatisticsEnabled(true)
                .setEvictionConfig(new EvictionConfig()
                        .setEvictionPolicy(EvictionPolicy.LRU)
                        .setMaxSizePolicy(MaxSizePolicy.PER_NODE)
                        .setSize(maxEntriesPerMember));
    }
}
