package org.netnslab.netns;

import java.util.List;
import org.netnslab.rcu.RcuDomain;
import org.netnslab.sockinuse.SockInuse;
import org.netnslab.uevent.SeqnumCounter;
import org.netnslab.uevent.SeqnumScope;
import org.netnslab.uevent.UeventSockOwner;
import org.netnslab.uevent.UeventSocket;

/**
 * The pernet ops every netns runs, in registration order: {@code sock_inuse} (registered early, as
 * the 4.16 code did, so its exit runs late), {@code uevent} (lib/kobject_uevent.c uevent_net_ops) and
 * {@code kernel_sockets} (the netns's own sockets, standing for the protocols' control sockets).
 */
public final class StandardPernetOps {
  private StandardPernetOps() {}

  /** @return the ops in registration order */
  public static List<PernetOperations> all() {
    return List.of(SOCK_INUSE, UEVENT, KERNEL_SOCKETS);
  }

  /**
   * sock_inuse: alloc_percpu in init; freed per {@code sock-inuse.free}: in the exit after
   * synchronize_rcu + rcu_barrier ({@code exit-barrier}), in the exit at once ({@code exit-unsafe}), or
   * in net_free after the batch's rcu_barrier ({@code net-free}).
   */
  public static final PernetOperations SOCK_INUSE = new PernetOperations() {
    @Override
    public String name() {
      return "sock_inuse";
    }

    @Override
    public void init(Net net) {
      net.sockInuse = new SockInuse(net.settings.sockInuse().cpus(), net.probe::useAfterFree);
    }

    @Override
    public ExitAction exit(Net net) {
      switch (net.settings.sockInuse().free()) {
        case EXIT_BARRIER:
          return new ExitAction.AfterRcu(true, true, net::freeSockInuse);
        case EXIT_UNSAFE:
          net.freeSockInuse();
          return ExitAction.DONE;
        default:
          return ExitAction.DONE;
      }
    }

    @Override
    public void netFree(Net net) {
      if (!net.sockInuse.isFreed()) {
        net.freeSockInuse();
      }
    }
  };

  /**
   * uevent: creates the netns's uevent socket (with its own SEQNUM counter under per-netns scope when
   * owned by a non-initial user namespace) and puts it on uevent_sock_list when owned by the initial
   * user namespace; the exit takes it off and closes every listener once its pending ENOBUFS is out.
   */
  public static final PernetOperations UEVENT = new PernetOperations() {
    @Override
    public String name() {
      return "uevent";
    }

    @Override
    public void init(Net net) {
      boolean own = net.settings.uevent().seqnumScope() == SeqnumScope.PER_NETNS && !net.owner().isInitial();
      net.ueventSocket = new UeventSocket(net.id(), net.owner(),
          own ? SeqnumCounter.perNetns(net.settings.uevent().serialization()) : net.globalSeqnum,
          net.settings.uevent().fault());
      if (net.ueventSocket.onUeventSockList()) {
        net.globalOwner.tell(new UeventSockOwner.Register(net.ueventSocket));
      }
    }

    @Override
    public ExitAction exit(Net net) {
      if (net.ueventSocket.onUeventSockList()) {
        net.globalOwner.tell(new UeventSockOwner.Unregister(net.ueventSocket));
      }
      return new ExitAction.RetryUntil(() -> net.ueventSocket.close() == 0);
    }
  };

  /**
   * kernel_sockets: the netns's own sockets ({@code netns.kernel-sockets}), not counted in sock_inuse.
   * The exit destroys them; a share ({@code sockets.rcu-free-fraction}) defers the final teardown
   * through call_rcu, and that teardown reads the netns's sock_inuse counter: after the counter is
   * freed, a use-after-free.
   */
  public static final PernetOperations KERNEL_SOCKETS = new PernetOperations() {
    @Override
    public String name() {
      return "kernel_sockets";
    }

    @Override
    public void init(Net net) {
      net.kernelSockets = net.settings.netns().kernelSockets();
    }

    @Override
    public ExitAction exit(Net net) {
      SockInuse counter = net.sockInuse;
      for (int i = 0; i < net.kernelSockets; i++) {
        if (net.nextCloseDeferred()) {
          net.rcu.tell(new RcuDomain.CallRcu(counter::get));
        } else {
          counter.get();
        }
      }
      net.kernelSockets = 0;
      return ExitAction.DONE;
    }
  };
}
