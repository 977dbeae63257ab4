import { Construction } from 'lucide-react';
import { Link } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { PageHeader } from '@/components/page-header';

interface ScaffoldScreenProps {
  title: string;
  /** What the finished screen will do, from PRODUCT.md §3. */
  summary: string;
  capabilities: string[];
}

/**
 * Honest placeholder for a screen a later issue builds. `data-scaffold` lets the browser tests
 * count the screens still to build; the issue that builds one removes it.
 */
export function ScaffoldScreen({ title, summary, capabilities }: ScaffoldScreenProps) {
  return (
    <section data-scaffold={summary} aria-labelledby="scaffold-title" className="mx-auto w-full max-w-4xl">
      <PageHeader title={<span id="scaffold-title">{title}</span>} description={summary} />
      <Card className="border-dashed">
        <CardContent className="flex flex-col gap-4 pt-6">
          <div className="flex items-start gap-3">
            <span className="rounded-lg bg-amber-100 p-2 text-amber-800">
              <Construction className="size-5" aria-hidden="true" />
            </span>
            <div className="min-w-0">
              <div className="flex flex-wrap items-center gap-2">
                <h2 className="font-semibold">This screen is not built yet</h2>
                <Badge variant="warning">Planned</Badge>
              </div>
              <p className="mt-1 text-sm text-muted-foreground">
                Nothing here is live data. When it ships, this screen will:
              </p>
            </div>
          </div>
          <ul className="grid gap-2 pl-1 text-sm sm:grid-cols-2">
            {capabilities.map((item) => (
              <li key={item} className="flex gap-2 rounded-md bg-muted px-3 py-2">
                <span aria-hidden="true" className="mt-1.5 size-1.5 shrink-0 rounded-full bg-primary" />
                <span>{item}</span>
              </li>
            ))}
          </ul>
          <div>
            <Button asChild variant="outline" size="sm">
              <Link href="/">Back to Dashboard</Link>
            </Button>
          </div>
        </CardContent>
      </Card>
    </section>
  );
}
