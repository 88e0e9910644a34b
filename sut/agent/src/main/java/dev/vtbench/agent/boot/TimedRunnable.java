package dev.vtbench.agent.boot;

/** A Runnable handed to an instrumented executor, wrapped so that its start and end are timed. */
public class TimedRunnable extends TimedTask implements Runnable {
  final Runnable delegate;

  TimedRunnable(Runnable delegate, Class<?> executor, RequestRecord request, boolean track) {
    super(executor, request, track);
    this.delegate = delegate;
  }

  @Override
  public void run() {
    enter();
    try {
      delegate.run();
    } finally {
      exit();
    }
  }

  @Override
  public Object delegate() {
    return delegate;
  }

  @Override
  public String toString() {
    return delegate.toString();
  }
}
