import { Component, type ErrorInfo, type ReactNode } from 'react';
import { AlertTriangle } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { reportClientError } from '@/lib/error-reporting';

interface Props {
  children: ReactNode;
  /** Changing the key (for example the path) clears a previous failure. */
  resetKey?: string;
  /**
   * Names an independent panel (a dashboard card): its failure shows a small notice in its
   * place and the rest of the screen keeps working.
   */
  panel?: string;
}

interface State {
  error: Error | null;
}

export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    reportClientError(error, info.componentStack ?? undefined);
  }

  override componentDidUpdate(prev: Props) {
    if (prev.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null });
  }

  override render() {
    if (!this.state.error) return this.props.children;
    if (this.props.panel) {
      return (
        <Card role="alert" className="flex flex-col items-start gap-2 p-4 text-sm">
          <p className="flex items-center gap-2 font-medium">
            <AlertTriangle className="size-4 text-red-700" aria-hidden="true" />
            {this.props.panel} could not be shown
          </p>
          <p className="text-muted-foreground">The error has been reported.</p>
          <Button variant="outline" size="sm" onClick={() => this.setState({ error: null })}>
            Try again
          </Button>
        </Card>
      );
    }
    return (
      <div role="alert" className="mx-auto flex max-w-lg flex-col items-center gap-4 py-16 text-center">
        <span className="rounded-full bg-red-100 p-3 text-red-700">
          <AlertTriangle className="size-6" aria-hidden="true" />
        </span>
        <h1 className="text-xl font-semibold">Something went wrong</h1>
        <p className="text-sm text-muted-foreground">
          This screen failed to load. The error has been reported. Try again, or reload the page.
        </p>
        <div className="flex gap-2">
          <Button variant="outline" onClick={() => this.setState({ error: null })}>
            Try again
          </Button>
          <Button onClick={() => window.location.reload()}>Reload</Button>
        </div>
      </div>
    );
  }
}
