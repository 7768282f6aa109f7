package org.netnslab.netns;

import java.util.function.BiConsumer;

/**
 * A map from netns id (a positive long) to a value, with the ids in a primitive array: open addressing,
 * linear probing, deletion by backward shift. About 24 B per entry at the load factor of 1/2 instead of
 * the ~56 B of a {@code HashMap<Long, V>} entry (node, boxed key, table slot): a million netns are held
 * in the supervisor's map. Not thread-safe: owned by one actor. Iteration order is the slot order, a
 * function of the ids inserted and removed (deterministic).
 *
 * @param <V> the value type
 */
final class NetnsIdMap<V> {
    private static final long FREE = 0;
    private long[] keys;
    private V[] values;
    private int size;

    /** An empty map. */
    NetnsIdMap() {
        alloc(16);
    }

    @SuppressWarnings("unchecked")
    private void alloc(int capacity) {
        keys = new long[capacity];
        values = (V[]) new Object[capacity];
    }

    private static int mix(long id) {
        long h = id * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    private int slot(long id) {
        int mask = keys.length - 1;
        int i = mix(id) & mask;
        while (keys[i] != FREE && keys[i] != id) {
            i = (i + 1) & mask;
        }
        return i;
    }

    private static void checkId(long id) {
        if (id <= 0) {
            throw new IllegalArgumentException("netns ids are positive, got " + id);
        }
    }

    /**
     * @param id a netns id, &gt; 0
     * @param value its value, not null
     * @return the value it replaced, or null
     * @throws IllegalArgumentException for an id &lt;= 0
     */
    V put(long id, V value) {
        checkId(id);
        int i = slot(id);
        if (keys[i] == id) {
            V old = values[i];
            values[i] = value;
            return old;
        }
        keys[i] = id;
        values[i] = value;
        if (++size * 2 > keys.length) {
            long[] k = keys;
            V[] v = values;
            alloc(keys.length * 2);
            for (int j = 0; j < k.length; j++) {
                if (k[j] != FREE) {
                    int s = slot(k[j]);
                    keys[s] = k[j];
                    values[s] = v[j];
                }
            }
        }
        return null;
    }

    /**
     * @param id a netns id
     * @return its value, or null
     */
    V get(long id) {
        if (id <= 0) {
            return null;
        }
        int i = slot(id);
        return keys[i] == id ? values[i] : null;
    }

    /**
     * @param id a netns id
     * @return the value it had, or null when absent
     */
    V remove(long id) {
        if (id <= 0) {
            return null;
        }
        int mask = keys.length - 1;
        int i = slot(id);
        if (keys[i] != id) {
            return null;
        }
        V old = values[i];
        // backward shift: move later entries of the probe run into the hole when their home slot allows it
        int hole = i;
        int j = (i + 1) & mask;
        while (keys[j] != FREE) {
            int home = mix(keys[j]) & mask;
            if (((j - home) & mask) >= ((j - hole) & mask)) {
                keys[hole] = keys[j];
                values[hole] = values[j];
                hole = j;
            }
            j = (j + 1) & mask;
        }
        keys[hole] = FREE;
        values[hole] = null;
        size--;
        if (size == 0 && keys.length > 1024) {
            alloc(16); // the population is gone: give its table back
        }
        return old;
    }

    /** @return entries held */
    int size() {
        return size;
    }

    /** @param action called with every (id, value), in slot order; it must not change the map */
    void forEach(BiConsumer<Long, V> action) {
        for (int j = 0; j < keys.length; j++) {
            if (keys[j] != FREE) {
                action.accept(keys[j], values[j]);
            }
        }
    }

    @Override
    public String toString() {
        return "NetnsIdMap[size=" + size + ", capacity=" + keys.length + "]";
    }
}
