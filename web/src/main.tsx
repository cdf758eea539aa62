/** The lineage explorer: a header with search on every page, and one page per URL. */
import { render } from 'preact';
import { SearchBox } from './components/SearchBox';
import { ColumnLineagePage } from './pages/ColumnLineage';
import { DatasetPage } from './pages/Dataset';
import { HomePage, NamespacePage } from './pages/Browse';
import { ImpactPage } from './pages/Impact';
import { JobPage } from './pages/Job';
import { LineagePage } from './pages/Lineage';
import { RunPage } from './pages/Run';
import { interceptLinks, paths, useLocation, type Location } from './router';
import './styles.css';

function Page({ loc }: { loc: Location }) {
  const [head, a, b] = loc.segments;
  switch (head) {
    case undefined:
      return <HomePage />;
    case 'namespaces':
      if (a) return <NamespacePage ns={a} loc={loc} />;
      return <HomePage />;
    case 'datasets':
      if (a && b) return <DatasetPage key={`${a}\u0000${b}`} ns={a} name={b} loc={loc} />;
      break;
    case 'jobs':
      if (a && b) return <JobPage key={`${a}\u0000${b}`} ns={a} name={b} loc={loc} />;
      break;
    case 'runs':
      if (a) return <RunPage key={a} id={a} />;
      break;
    case 'lineage':
      return <LineagePage loc={loc} />;
    case 'column-lineage':
      return <ColumnLineagePage loc={loc} />;
    case 'impact':
      return <ImpactPage loc={loc} />;
  }
  return (
    <main class="page">
      <h1>Not found</h1>
      <p>
        No page at <code>{loc.href}</code>. <a href={paths.home()}>Browse the namespaces</a>.
      </p>
    </main>
  );
}

function App() {
  const loc = useLocation();
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href={paths.home()}>
          Lineage
        </a>
        <SearchBox />
        <nav aria-label="Main">
          <a href={paths.home()}>Namespaces</a>
          <a href="/api/docs" target="_blank" rel="noopener">
            API
          </a>
        </nav>
      </header>
      <div id="main">
        <Page loc={loc} />
      </div>
    </>
  );
}

const root = document.getElementById('app')!;
interceptLinks(root);
render(<App />, root);
