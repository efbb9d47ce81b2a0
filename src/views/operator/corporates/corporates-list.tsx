import { Button, H1, InputGroup, Tag } from '@blueprintjs/core';
import { Plus, Search } from '@blueprintjs/icons';
import { useForm } from 'react-hook-form';
import { ONBOARDING_STATE_LABELS, type OnboardingState } from '../../../domain/corporate-file';
import { PAGE_SIZE } from '../../../domain/schemas/invoices';
import type { CorporatePage } from '../../../domain/schemas/operator-corporates';
import { corporateIntent } from '../../../machines/corporate-actions.machine';
import { type BackOfficeColumn, BackOfficeList, type RemoteData } from '../list/back-office-list';
import type { CorporateActionsSend, CorporateActionsSnapshot } from './corporate-actions-view';
import { NewCorporateDialog } from './new-corporate-dialog';
import './corporates.css';

export const ONBOARDING_STATE_INTENTS: Readonly<
  Record<OnboardingState, 'none' | 'primary' | 'success' | 'danger'>
> = {
  borrador: 'none',
  en_revision: 'primary',
  activo: 'success',
  rechazado: 'danger',
  suspendido: 'danger',
};

type CorporateRow = CorporatePage['results'][number];

function corporateColumns(openCorporate: (id: number) => void): readonly BackOfficeColumn<CorporateRow>[] {
  return [
    { id: 'rfc', header: 'RFC', cell: (row) => row.rfc ?? '—' },
    {
      id: 'name',
      header: 'Nombre',
      cell: (row) => <Button variant="minimal" text={row.name} onClick={() => openCorporate(row.id)} />,
    },
    {
      id: 'state',
      header: 'Estado',
      cell: (row) => (
        <Tag intent={ONBOARDING_STATE_INTENTS[row.state]}>{ONBOARDING_STATE_LABELS[row.state]}</Tag>
      ),
    },
  ];
}

export interface CorporatesListProps {
  list: RemoteData<CorporatePage>;
  search: string;
  page: number;
  onSearch: (search: string) => void;
  onPage: (page: number) => void;
  openCorporate: (id: number) => void;
  /** The `corporate-actions` machine: «Nuevo corporativo» and its promotion question. */
  snapshot: CorporateActionsSnapshot;
  send: CorporateActionsSend;
}

/** /operacion/corporativos/: the corporates with their onboarding state, a search and 'Nuevo corporativo'. */
export function CorporatesList(props: CorporatesListProps) {
  const { snapshot, send } = props;
  const searchForm = useForm<{ search: string }>({ values: { search: props.search } });
  const typed = searchForm.register('search');
  return (
    <section aria-labelledby="corporativos-titulo" className="flujo-operator-page">
      <header className="flujo-operator-page-header">
        <H1 id="corporativos-titulo">Corporativos</H1>
        <Button
          intent="primary"
          icon={<Plus />}
          text="Nuevo corporativo"
          onClick={() =>
            send({ type: 'action.open', intent: corporateIntent({ action: 'create' }, 'Nuevo corporativo') })
          }
        />
      </header>
      {/* biome-ignore lint/a11y/useSemanticElements: React 18 does not know the <search> element yet */}
      <div role="search">
        <form
          aria-label="Buscar corporativos"
          onSubmit={searchForm.handleSubmit(({ search }) => props.onSearch(search.trim()))}
        >
          <InputGroup
            type="search"
            aria-label="Buscar por RFC o nombre"
            placeholder="Buscar por RFC o nombre"
            leftIcon={<Search />}
            inputRef={typed.ref}
            name={typed.name}
            onChange={typed.onChange}
            onBlur={typed.onBlur}
            rightElement={<Button type="submit" variant="minimal" text="Buscar" />}
          />
        </form>
      </div>
      <BackOfficeList
        label="Corporativos"
        remote={props.list}
        columns={corporateColumns(props.openCorporate)}
        rowKey={(row) => row.id}
        loading="Cargando corporativos"
        failed="No pudimos cargar los corporativos"
        empty={{
          title: props.search ? 'Ningún corporativo coincide con la búsqueda' : 'Aún no hay corporativos',
          description: 'Da de alta uno con «Nuevo corporativo».',
        }}
        paging={{
          label: 'Páginas de corporativos',
          page: props.page,
          pageSize: PAGE_SIZE,
          noun: ['corporativo', 'corporativos'],
          onPage: props.onPage,
        }}
      />
      <NewCorporateDialog snapshot={snapshot} send={send} />
    </section>
  );
}
