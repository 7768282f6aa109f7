package org.netnslab.netns;

import akka.Done;
import akka.actor.testkit.typed.javadsl.TestKitJunitResource;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import java.time.Duration;
import java.util.List;
import org.netnslab.rcu.RcuDomain;
import org.netnslab.settings.Setting;
import org.netnslab.sockinuse.SockInuseFree;
import org.netnslab.userns.UserNamespace;

/** What the lifecycle tests share: a small design, a recording pernet op, and supervisor questions. */
final class LifecycleFixtures {
    static final Duration WAIT = Duration.ofSeconds(10);

    private LifecycleFixtures() {}

    /** 2 ms grace periods, 2 CPUs, 2 kernel sockets, half of the closes RCU-freed, no costs. */
    static ModelSettings design(LifecycleLock lock, SockInuseFree free) {
        return ModelSettings.withKeys("netns.lifecycle-lock = " + Setting.spell(lock) + ", sock-inuse.free = "
                + Setting.spell(free)
                + ", rcu { grace-period = 2ms, expedited-grace-period = 1ms }, sock-inuse.cpus = 2"
                + ", netns { kernel-sockets = 2, setup-cost = 0ms, exit-cost = 0ms }, sockets.rcu-free-fraction = 0.5"
                + ", uevent { serialization = global-owner, seqnum-scope = global, listener-rcvbuf = 0 }");
    }

    /** An op that records every call as "hook name" (exit_batch as "exit_batch name xN"); its init may fail. */
    static PernetOperations recording(String name, List<String> log, boolean failInit) {
        return new PernetOperations() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void init(Net net) throws PernetInitException {
                log.add("init " + name);
                if (failInit) {
                    throw new PernetInitException("boom");
                }
            }

            @Override
            public void preExit(Net net) {
                log.add("pre_exit " + name);
            }

            @Override
            public ExitAction exit(Net net) {
                log.add("exit " + name);
                return ExitAction.DONE;
            }

            @Override
            public void exitBatch(List<Long> netnsIds) {
                log.add("exit_batch " + name + " x" + netnsIds.size());
            }

            @Override
            public void freeData(Net net) {
                log.add("free " + name);
            }

            @Override
            public void netFree(Net net) {
                log.add("net_free " + name);
            }
        };
    }

    static CreateResult create(TestKitJunitResource kit, ActorRef<NamespaceSupervisor.Command> sup) {
        TestProbe<CreateResult> p = kit.createTestProbe();
        sup.tell(new NamespaceSupervisor.CreateNetns(UserNamespace.INIT, p.getRef()));
        return p.receiveMessage(WAIT);
    }

    static int countLive(TestKitJunitResource kit, ActorRef<NamespaceSupervisor.Command> sup) {
        TestProbe<Integer> live = kit.createTestProbe();
        sup.tell(new NamespaceSupervisor.CountLive(live.getRef()));
        return live.receiveMessage(WAIT);
    }

    /** Waits until no netns is left and checks that none is alive. */
    static void awaitAllFreed(TestKitJunitResource kit, ActorRef<NamespaceSupervisor.Command> sup) {
        TestProbe<Done> p = kit.createTestProbe();
        sup.tell(new NamespaceSupervisor.AwaitAllFreed(p.getRef()));
        p.expectMessage(WAIT, Done.getInstance());
        org.junit.Assert.assertEquals(0, countLive(kit, sup));
    }

    static RcuDomain.Stats rcuStats(TestKitJunitResource kit, ActorRef<NamespaceSupervisor.Command> sup) {
        TestProbe<RcuDomain.Stats> p = kit.createTestProbe();
        sup.tell(new NamespaceSupervisor.GetRcuStats(p.getRef()));
        return p.receiveMessage(WAIT);
    }
}
