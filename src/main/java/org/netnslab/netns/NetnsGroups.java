package org.netnslab.netns;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.ActorContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.netnslab.machine.ModelDispatcher;

/**
 * Where each netns of a {@link NamespaceSupervisor} lives: the map netns id -> {@link NetnsGroup}, O(1)
 * both ways, and the groups with room. A new netns goes to a group with room, or to a new group when
 * none has; a group whose last netns stopped is stopped unless no other group has room (then it takes
 * the next netns), so at most one empty group stays. Owned by the supervisor actor, which alone calls it.
 */
final class NetnsGroups {

    /** A group actor and the number of its netns still alive. */
    private static final class Group {
        final ActorRef<NetnsGroup.Command> ref;
        int live;

        Group(ActorRef<NetnsGroup.Command> ref) {
            this.ref = ref;
        }
    }

    private final ActorContext<NamespaceSupervisor.Command> ctx;
    private final int groupSize;
    /** netns id -> its group: a primitive map, since it holds the whole population. */
    private final NetnsIdMap<Group> netns = new NetnsIdMap<>();

    private final Map<ActorRef<NetnsGroup.Command>, Group> groups = new LinkedHashMap<>();
    private final Set<Group> withRoom = new LinkedHashSet<>();
    private long nextGroup = 1;

    /**
     * @param ctx the supervisor's context: groups are its children, watched with
     *     {@link NamespaceSupervisor.GroupStopped}
     * @param groupSize the most netns one group holds, at least 1
     */
    NetnsGroups(ActorContext<NamespaceSupervisor.Command> ctx, int groupSize) {
        this.ctx = ctx;
        this.groupSize = groupSize;
    }

    /** Spawns netns {@code id} in a group with room. */
    void spawn(long id, Behavior<NetNamespace.Command> behavior) {
        Group g;
        if (withRoom.isEmpty()) {
            g = new Group(ModelDispatcher.spawn(ctx, NetnsGroup.create(ctx.getSelf()), "group-" + nextGroup++));
            ctx.watchWith(g.ref, new NamespaceSupervisor.GroupStopped(g.ref));
            groups.put(g.ref, g);
            withRoom.add(g);
        } else {
            g = withRoom.iterator().next();
        }
        if (++g.live == groupSize) {
            withRoom.remove(g);
        }
        netns.put(id, g);
        g.ref.tell(new NetnsGroup.Spawn(id, behavior));
    }

    /** @return the group holding netns {@code id}, or null when no such netns is alive */
    ActorRef<NetnsGroup.Command> groupOf(long id) {
        Group g = netns.get(id);
        return g == null ? null : g.ref;
    }

    /**
     * Netns {@code id} stopped; its group is stopped when it has none left and another group has room.
     *
     * @return whether the netns was listed
     */
    boolean remove(long id) {
        Group g = netns.remove(id);
        if (g == null) {
            return false;
        }
        g.live--;
        withRoom.add(g);
        if (g.live == 0 && withRoom.size() > 1) {
            groups.remove(g.ref);
            withRoom.remove(g);
            ctx.stop(g.ref); // empty and no longer offered: no Spawn can be on its way to it
        }
        return true;
    }

    /**
     * A group stopped. When {@link #remove} stopped it, nothing is left; when it failed, its netns went
     * with it and are taken off the map.
     *
     * @return the ids of the netns it took with it
     */
    List<Long> groupStopped(ActorRef<NetnsGroup.Command> ref) {
        Group failed = groups.remove(ref);
        if (failed == null) {
            return List.of();
        }
        withRoom.remove(failed);
        List<Long> lost = new ArrayList<>();
        netns.forEach((id, g) -> {
            if (g == failed) {
                lost.add(id);
            }
        });
        lost.forEach(netns::remove);
        return lost;
    }

    /** Sends {@code message} to every group. */
    void tellAll(NetnsGroup.Command message) {
        groups.keySet().forEach(g -> g.tell(message));
    }

    /** @return netns alive or being set up */
    int netnsCount() {
        return netns.size();
    }

    /** @return group actors alive */
    int groupCount() {
        return groups.size();
    }
}
