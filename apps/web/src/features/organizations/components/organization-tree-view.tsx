import { Building2, MoveRight } from 'lucide-react';
import type { OrganizationTreeNode } from '@outlay/contracts/organizations';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';

interface Props {
  nodes: OrganizationTreeNode[];
  /** Offers a Move button on each subsidiary (org.manage). */
  onMove?: (node: OrganizationTreeNode) => void;
  depth?: number;
}

/** The hierarchy as nested lists: each company with its code, currency and status; subsidiaries can be moved. */
export function OrganizationTreeView({ nodes, onMove, depth = 0 }: Props) {
  return (
    <ul className={cn('flex flex-col gap-2', depth > 0 && 'mt-2 border-l-2 border-border pl-3 sm:pl-5')}>
      {nodes.map((node) => (
        <li key={node.id}>
          <div className="flex flex-wrap items-center gap-2 rounded-lg border bg-card px-3 py-2">
            <Building2 className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
            <span className="font-medium">{node.name}</span>
            <Badge variant="outline">{node.code}</Badge>
            <Badge variant={node.kind === 'group' ? 'purple' : 'primary'}>
              {node.kind === 'group' ? 'Group' : 'Subsidiary'}
            </Badge>
            <span className="text-xs text-muted-foreground">{node.currency}</span>
            {!node.active && <Badge>Inactive</Badge>}
            {onMove && node.kind === 'subsidiary' && (
              <Button
                variant="ghost"
                size="sm"
                className="ml-auto"
                onClick={() => onMove(node)}
                aria-label={`Move ${node.name}`}
              >
                <MoveRight aria-hidden="true" /> Move
              </Button>
            )}
          </div>
          {node.children.length > 0 && <OrganizationTreeView nodes={node.children} onMove={onMove} depth={depth + 1} />}
        </li>
      ))}
    </ul>
  );
}

/** Every node of the forest, depth first. */
export function flatten(nodes: OrganizationTreeNode[]): OrganizationTreeNode[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children)]);
}
