import {
  Alert,
  Button,
  Callout,
  H1,
  HTMLTable,
  InputGroup,
  NonIdealState,
  Spinner,
  Tag,
} from '@blueprintjs/core';
import { Plus, Search } from '@blueprintjs/icons';
import { type FormEvent, useState } from 'react';
import { ONBOARDING_STATE_LABELS, type OnboardingState } from '../../../domain/corporate-file';
import type { CorporatePage } from '../../../domain/schemas/operator-corporates';
import type { ActionResult } from './action-result';
import { NewCorporateDialog, type NewCorporateValues } from './new-corporate-dialog';
import './corporates.css';
import { OperatorPager } from '../operator-pager';

export const ONBOARDING_STATE_INTENTS: Readonly<
  Record<OnboardingState, 'none' | 'primary' | 'success' | 'danger'>
> = {
  borrador: 'none',
  en_revision: 'primary',
  activo: 'success',
  rechazado: 'danger',
  suspendido: 'danger',
};

export interface CorporatesListProps {
  page: CorporatePage | undefined;
  isPending: boolean;
  isError: boolean;
  search: string;
  pageNumber: number;
  onSearch: (search: string) => void;
  onPage: (page: number) => void;
  onRetry: () => void;
  openCorporate: (id: number) => void;
  createCorporate: (values: NewCorporateValues) => Promise<ActionResult & { id?: number }>;
}

/** /operacion/corporativos/: the corporates with their onboarding state, a search and 'Nuevo corporativo'. */
export function CorporatesList(props: CorporatesListProps) {
  const [typed, setTyped] = useState(props.search);
  const [creating, setCreating] = useState(false);
  // The RFC is an existing provider's: the server named it and waits for the operator to confirm.
  const [promotion, setPromotion] = useState<{
    values: NewCorporateValues;
    message: string;
    failure: string | null;
  } | null>(null);
  const created = (result: ActionResult & { id?: number }) => {
    if (!result.ok) return;
    setCreating(false);
    if (result.id !== undefined) props.openCorporate(result.id);
  };
  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    props.onSearch(typed.trim());
  };
  const page = props.page;
  return (
    <section aria-labelledby="corporativos-titulo" className="flujo-operator-page">
      <header className="flujo-operator-page-header">
        <H1 id="corporativos-titulo">Corporativos</H1>
        <Button intent="primary" icon={<Plus />} text="Nuevo corporativo" onClick={() => setCreating(true)} />
      </header>
      {/* biome-ignore lint/a11y/useSemanticElements: React 18 does not know the <search> element yet */}
      <div role="search">
        <form aria-label="Buscar corporativos" onSubmit={submitSearch}>
          <InputGroup
            type="search"
            aria-label="Buscar por RFC o nombre"
            placeholder="Buscar por RFC o nombre"
            leftIcon={<Search />}
            value={typed}
            onValueChange={setTyped}
            rightElement={<Button type="submit" variant="minimal" text="Buscar" />}
          />
        </form>
      </div>
      {props.isPending && <Spinner aria-label="Cargando corporativos" />}
      {props.isError && (
        <Callout intent="danger" role="alert" title="No pudimos cargar los corporativos">
          <Button text="Reintentar" onClick={props.onRetry} />
        </Callout>
      )}
      {page && page.results.length === 0 && (
        <NonIdealState
          title={props.search ? 'Ningún corporativo coincide con la búsqueda' : 'Aún no hay corporativos'}
          description="Da de alta uno con «Nuevo corporativo»."
        />
      )}
      {page && page.results.length > 0 && (
        <>
          <HTMLTable striped interactive aria-label="Corporativos" className="flujo-operator-table">
            <thead>
              <tr>
                <th scope="col">RFC</th>
                <th scope="col">Nombre</th>
                <th scope="col">Estado</th>
              </tr>
            </thead>
            <tbody>
              {page.results.map((row) => (
                <tr key={row.id}>
                  <td>{row.rfc ?? '—'}</td>
                  <td>
                    <Button variant="minimal" text={row.name} onClick={() => props.openCorporate(row.id)} />
                  </td>
                  <td>
                    <Tag intent={ONBOARDING_STATE_INTENTS[row.state]}>
                      {ONBOARDING_STATE_LABELS[row.state]}
                    </Tag>
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
          <OperatorPager
            label="Páginas de corporativos"
            page={props.pageNumber}
            count={page.count}
            noun={['corporativo', 'corporativos']}
            hasPrevious={page.previous !== null}
            hasNext={page.next !== null}
            onPage={props.onPage}
          />
        </>
      )}
      <NewCorporateDialog
        isOpen={creating}
        onClose={() => setCreating(false)}
        onSubmit={async (values) => {
          const result = await props.createCorporate(values);
          const confirmation = result.ok ? undefined : result.fields?.confirm_promotion?.[0];
          if (confirmation !== undefined) {
            setPromotion({ values, message: confirmation, failure: null });
            return { ok: false, message: confirmation };
          }
          created(result);
          return result;
        }}
      />
      <Alert
        isOpen={promotion !== null}
        intent="warning"
        cancelButtonText="Cancelar"
        confirmButtonText="Convertir en corporativo"
        onCancel={() => setPromotion(null)}
        onConfirm={async () => {
          if (!promotion) return;
          const result = await props.createCorporate({ ...promotion.values, confirm_promotion: true });
          if (result.ok) {
            setPromotion(null);
            created(result);
          } else {
            setPromotion({ ...promotion, failure: result.message });
          }
        }}
      >
        <p>{promotion?.message}</p>
        {promotion?.failure && (
          <p role="alert" className="flujo-operator-hint">
            {promotion.failure}
          </p>
        )}
      </Alert>
    </section>
  );
}
