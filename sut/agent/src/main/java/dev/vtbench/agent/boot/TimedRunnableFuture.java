package dev.vtbench.agent.boot;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The wrapper for a task that is itself a Future (a FutureTask from submit): it stays a Future, delegating
 * every Future method, so code that checks {@code r instanceof Future} (a ThreadPoolExecutor's afterExecute,
 * shutdownNow's list) and cancels or reads it keeps working.
 */
public final class TimedRunnableFuture extends TimedRunnable implements RunnableFuture<Object> {
  @SuppressWarnings("unchecked")
  private final RunnableFuture<Object> future;

  @SuppressWarnings("unchecked")
  TimedRunnableFuture(RunnableFuture<?> delegate, Class<?> executor, RequestRecord request, boolean track) {
    super(delegate, executor, request, track);
    this.future = (RunnableFuture<Object>) delegate;
  }

  @Override
  public boolean cancel(boolean mayInterruptIfRunning) {
    return future.cancel(mayInterruptIfRunning);
  }

  @Override
  public boolean isCancelled() {
    return future.isCancelled();
  }

  @Override
  public boolean isDone() {
    return future.isDone();
  }

  @Override
  public Object get() throws InterruptedException, ExecutionException {
    return future.get();
  }

  @Override
  public Object get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
    return future.get(timeout, unit);
  }
}
