package dev.vtbench.agent.boot;

import java.util.concurrent.Callable;

/** A Callable handed to an instrumented executor (ThreadPerTaskExecutor.submit), wrapped so that its start and end are timed. */
public final class TimedCallable<V> extends TimedTask implements Callable<V> {
  final Callable<V> delegate;

  TimedCallable(Callable<V> delegate, Class<?> executor, RequestRecord request, boolean track) {
    super(executor, request, track);
    this.delegate = delegate;
  }

  @Override
  public V call() throws Exception {
    enter();
    try {
      return delegate.call();
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
